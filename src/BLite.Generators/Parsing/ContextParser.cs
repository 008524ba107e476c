using System.Collections.Generic;
using System.Linq;
using System.Threading;
using BLite.Generators.Model;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace BLite.Generators.Parsing;

/// <summary>
/// Recognises a non-abstract class deriving (directly or not) from BLite.DocumentDbContext and
/// finds its DocumentCollection properties, including those of abstract base contexts (a
/// non-abstract base context gets its own generated wiring, which the override calls first).
/// </summary>
internal static class ContextParser
{
    /// <summary>Null when the class is not a context (or is handled through another of its declarations).</summary>
    public static ContextResult? Parse(ClassDeclarationSyntax declaration, SemanticModel semanticModel, CancellationToken cancellationToken)
    {
        var known = KnownTypes.For(semanticModel.Compilation);
        if (known.DbContext is null
            || semanticModel.GetDeclaredSymbol(declaration, cancellationToken) is not INamedTypeSymbol type
            || type.IsAbstract)
        {
            return null;
        }

        if (!DerivesFrom(type, known.DbContext)
            || type.DeclaringSyntaxReferences[0].GetSyntax(cancellationToken) != declaration)
        {
            return null;
        }

        var diagnostics = new List<DiagnosticInfo>();
        if (!IsPartialAllTheWayOut(type, cancellationToken))
        {
            diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.ContextNotPartial, declaration.Identifier.GetLocation(), type.Name));
            return new ContextResult(null, EquatableArray<MapperSpec>.Empty, diagnostics.ToEquatableArray());
        }

        var collections = new List<CollectionSpec>();
        var mappers = new List<MapperSpec>();
        var namesInUse = new Dictionary<string, string>(System.StringComparer.Ordinal);
        var failed = false;
        foreach (var property in CollectionProperties(type, known))
        {
            var location = property.Locations.FirstOrDefault();
            var collectionType = (INamedTypeSymbol)property.Type;
            var idType = collectionType.TypeArguments[0];
            if (collectionType.TypeArguments[1] is not INamedTypeSymbol documentType)
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.DocumentNotClass, location, TypeNames.Display(collectionType.TypeArguments[1])));
                failed = true;
                continue;
            }

            if (property.SetMethod is null || property.SetMethod.IsInitOnly
                || (property.SetMethod.DeclaredAccessibility == Accessibility.Private && !SymbolEqualityComparer.Default.Equals(property.ContainingType, type)))
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.CollectionWithoutSetter, location, property.Name));
                failed = true;
                continue;
            }

            var result = MapperParser.Parse(documentType, known, location, cancellationToken);
            diagnostics.AddRange(result.Diagnostics);
            if (result.Mapper is not { } mapper)
            {
                failed = true;
                continue;
            }

            if (TypeNames.Plain(idType) != mapper.IdTypeName)
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.CollectionIdTypeMismatch, location, property.Name, TypeNames.Display(idType), documentType.Name, mapper.IdTypeName.Replace("global::", "")));
                failed = true;
                continue;
            }

            // As EF Core names a table after its DbSet property, a collection is named after its
            // context property unless the document type names it with [BLiteDocument("name")].
            var collectionName = MapperParser.ExplicitCollectionNameFor(documentType, known) ?? property.Name;
            if (namesInUse.TryGetValue(collectionName, out var otherProperty))
            {
                diagnostics.Add(DiagnosticInfo.Create(DiagnosticDescriptors.DuplicateCollectionName, location, collectionName, otherProperty, property.Name, type.Name));
                failed = true;
                continue;
            }

            namesInUse.Add(collectionName, property.Name);
            mappers.Add(mapper);
            collections.Add(new CollectionSpec(TypeNames.Identifier(property.Name), collectionName, mapper.MapperFullName, mapper.IdTypeName, mapper.DocumentTypeName, mapper.IdConverted));
        }

        var spec = failed ? null : new ContextSpec(
            type.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString() : null,
            DeclarationName(type),
            HintName(type),
            ContainingDeclarations(type),
            collections.ToEquatableArray());
        return new ContextResult(spec, mappers.ToEquatableArray(), diagnostics.ToEquatableArray());
    }

    internal static bool DerivesFrom(INamedTypeSymbol type, INamedTypeSymbol baseType)
    {
        for (var current = type.BaseType; current is not null; current = current.BaseType)
        {
            if (SymbolEqualityComparer.Default.Equals(current, baseType))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Collection properties of the context and of abstract base contexts up to the next generated one.</summary>
    private static IEnumerable<IPropertySymbol> CollectionProperties(INamedTypeSymbol type, KnownTypes known)
    {
        var seen = new HashSet<string>(System.StringComparer.Ordinal);
        for (var current = type; current is not null && !SymbolEqualityComparer.Default.Equals(current, known.DbContext); current = current.BaseType)
        {
            if (!SymbolEqualityComparer.Default.Equals(current, type) && !current.IsAbstract)
            {
                yield break;
            }

            foreach (var member in current.GetMembers())
            {
                if (member is IPropertySymbol { IsStatic: false, IsIndexer: false, Type: INamedTypeSymbol propertyType } property
                    && SymbolEqualityComparer.Default.Equals(propertyType.OriginalDefinition, known.DocumentCollection)
                    && seen.Add(property.Name))
                {
                    yield return property;
                }
            }
        }
    }

    private static bool IsPartialAllTheWayOut(INamedTypeSymbol type, CancellationToken cancellationToken)
    {
        for (var current = type; current is not null; current = current.ContainingType)
        {
            foreach (var reference in current.DeclaringSyntaxReferences)
            {
                if (reference.GetSyntax(cancellationToken) is TypeDeclarationSyntax syntax && !syntax.Modifiers.Any(SyntaxKind.PartialKeyword))
                {
                    return false;
                }
            }
        }

        return true;
    }

    private static string DeclarationName(INamedTypeSymbol type)
        => type.TypeParameters.Length == 0 ? type.Name : type.Name + "<" + string.Join(", ", type.TypeParameters.Select(p => p.Name)) + ">";

    private static string HintName(INamedTypeSymbol type)
    {
        var name = TypeNames.Sanitize(type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat).Replace("global::", ""));
        return name;
    }

    private static EquatableArray<string> ContainingDeclarations(INamedTypeSymbol type)
    {
        var declarations = new List<string>();
        for (var outer = type.ContainingType; outer is not null; outer = outer.ContainingType)
        {
            var keyword = outer.IsRecord ? (outer.IsValueType ? "record struct" : "record") : outer.TypeKind == TypeKind.Struct ? "struct" : outer.TypeKind == TypeKind.Interface ? "interface" : "class";
            declarations.Insert(0, "partial " + keyword + " " + DeclarationName(outer));
        }

        return declarations.ToEquatableArray();
    }
}
