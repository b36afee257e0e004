/**
 * Finds `any` in the public signatures of TypeScript files: what a module
 * exports (functions, classes, interfaces, type aliases, constants), followed
 * through the types it names, written or inferred. Types declared outside the
 * checked files (koa's, the standard library's) are not entered: their
 * insides are not the generated code's signature, though the type arguments
 * the generated code gives them are (`Koa<any, any>`, `Promise<any>`).
 */
import ts from 'typescript';

export interface AnyFinding {
  /** The file, relative to the project. */
  file: string;
  /** Where in the export the `any` sits: `createApp(options).app`, `Client.listBooks → data`. */
  where: string;
}

/** The deepest a type is followed: deep enough for nested envelopes, bounded for recursive types. */
const MAX_DEPTH = 12;

export function anyInPublicSignatures(program: ts.Program, files: ReadonlySet<string>, relativeTo: (file: string) => string): AnyFinding[] {
  const checker = program.getTypeChecker();
  const findings: AnyFinding[] = [];
  const ours = (node: ts.Node) => files.has(node.getSourceFile().fileName);

  for (const sourceFile of program.getSourceFiles()) {
    if (!files.has(sourceFile.fileName)) continue;
    const module = checker.getSymbolAtLocation(sourceFile);
    if (!module) continue;
    const file = relativeTo(sourceFile.fileName);
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      // A re-export of a declaration in another checked file is checked there; one from a library is not ours.
      if (!symbol.declarations?.some((declaration) => declaration.getSourceFile() === sourceFile)) continue;
      const walk = new TypeWalk(checker, ours, (where) => findings.push({ file, where: `${exported.name}${where}` }));
      if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class))
        walk.visit(checker.getDeclaredTypeOfSymbol(symbol), '', 0);
      if (symbol.flags & ts.SymbolFlags.Value) walk.visit(checker.getTypeOfSymbol(symbol), '', 0);
    }
  }
  return findings;
}

class TypeWalk {
  private readonly seen = new Set<ts.Type>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly ours: (node: ts.Node) => boolean,
    private readonly report: (where: string) => void,
  ) {}

  visit(type: ts.Type, where: string, depth: number): void {
    if (type.flags & ts.TypeFlags.Any) return this.report(where);
    if (depth > MAX_DEPTH || this.seen.has(type)) return;
    this.seen.add(type);
    if (type.isUnionOrIntersection()) return type.types.forEach((member) => this.visit(member, where, depth + 1));
    for (const argument of type.aliasTypeArguments ?? []) this.visit(argument, `${where}<>`, depth + 1);
    if (isReference(type)) for (const argument of this.checker.getTypeArguments(type)) this.visit(argument, `${where}<>`, depth + 1);
    if (this.isForeign(type)) return;
    this.visitMembers(type, where, depth);
  }

  private visitMembers(type: ts.Type, where: string, depth: number): void {
    for (const property of this.checker.getPropertiesOfType(type)) {
      // A generic class's `prototype` is typed with `any` arguments by TypeScript itself, whatever the code says.
      if (isHidden(property) || property.flags & ts.SymbolFlags.Prototype) continue;
      this.visit(this.checker.getTypeOfSymbol(property), `${where}.${property.name}`, depth + 1);
    }
    for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      for (const parameter of signature.getParameters())
        this.visit(this.checker.getTypeOfSymbol(parameter), `${where}(${parameter.name})`, depth + 1);
      this.visit(signature.getReturnType(), `${where} →`, depth + 1);
    }
    for (const index of this.checker.getIndexInfosOfType(type)) this.visit(index.type, `${where}[]`, depth + 1);
  }

  /** A type declared only outside the checked files: the standard library's, a dependency's. */
  private isForeign(type: ts.Type): boolean {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const declarations = symbol?.declarations ?? [];
    return declarations.length > 0 && !declarations.some(this.ours);
  }
}

function isReference(type: ts.Type): type is ts.TypeReference {
  return (type.flags & ts.TypeFlags.Object) !== 0 && ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0;
}

/** Private and protected class members, and `#names`, are not part of the public signature. */
function isHidden(property: ts.Symbol): boolean {
  return (property.declarations ?? []).some(
    (declaration) =>
      (ts.isPropertyDeclaration(declaration) || ts.isMethodDeclaration(declaration) || ts.isParameterPropertyDeclaration(declaration, declaration.parent)) &&
      ((ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 || ts.isPrivateIdentifier(declaration.name)),
  );
}
