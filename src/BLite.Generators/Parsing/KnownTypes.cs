using BLite.Bson.Mapping;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;

namespace BLite.Generators.Parsing;

/// <summary>
/// The symbols the parser compares against, resolved once per compilation (<see cref="For"/>) and
/// shared by every transform of that compilation, instead of about 27 lookups per candidate type.
/// The table holds symbols, so it never enters a pipeline model: transforms read it and emit
/// equatable specs only.
/// </summary>
internal sealed class KnownTypes
{
    private static readonly ConditionalWeakTable<Compilation, KnownTypes> Cache = new();

    private KnownTypes(Compilation compilation)
    {
        Compilation = compilation;
        Assembly = compilation.Assembly;
        ObjectId = compilation.GetTypeByMetadataName(MappingConventions.ObjectIdType);
        Guid = compilation.GetTypeByMetadataName("System.Guid");
        DateTimeOffset = compilation.GetTypeByMetadataName("System.DateTimeOffset");
        TimeSpan = compilation.GetTypeByMetadataName("System.TimeSpan");
        DateOnly = compilation.GetTypeByMetadataName("System.DateOnly");
        TimeOnly = compilation.GetTypeByMetadataName("System.TimeOnly");
        ReadOnlyMemory = compilation.GetTypeByMetadataName("System.ReadOnlyMemory`1");
        List = compilation.GetTypeByMetadataName("System.Collections.Generic.List`1");
        IList = compilation.GetTypeByMetadataName("System.Collections.Generic.IList`1");
        IReadOnlyList = compilation.GetTypeByMetadataName("System.Collections.Generic.IReadOnlyList`1");
        ICollection = compilation.GetTypeByMetadataName("System.Collections.Generic.ICollection`1");
        IReadOnlyCollection = compilation.GetTypeByMetadataName("System.Collections.Generic.IReadOnlyCollection`1");
        HashSet = compilation.GetTypeByMetadataName("System.Collections.Generic.HashSet`1");
        ISet = compilation.GetTypeByMetadataName("System.Collections.Generic.ISet`1");
        IReadOnlySet = compilation.GetTypeByMetadataName("System.Collections.Generic.IReadOnlySet`1");
        Dictionary = compilation.GetTypeByMetadataName("System.Collections.Generic.Dictionary`2");
        IDictionary = compilation.GetTypeByMetadataName("System.Collections.Generic.IDictionary`2");
        IReadOnlyDictionary = compilation.GetTypeByMetadataName("System.Collections.Generic.IReadOnlyDictionary`2");
        BsonIdAttribute = compilation.GetTypeByMetadataName(MappingConventions.IdAttribute);
        BsonIgnoreAttribute = compilation.GetTypeByMetadataName(MappingConventions.IgnoreAttribute);
        BsonFieldAttribute = compilation.GetTypeByMetadataName(MappingConventions.FieldAttribute);
        DerivedTypeAttribute = compilation.GetTypeByMetadataName(MappingConventions.DerivedTypeAttribute);
        DocumentAttribute = compilation.GetTypeByMetadataName(MappingConventions.DocumentAttribute);
        DbContext = compilation.GetTypeByMetadataName(MappingConventions.DbContextType);
        DocumentCollection = compilation.GetTypeByMetadataName(MappingConventions.CollectionType);
        DocumentRef = compilation.GetTypeByMetadataName("BLite.DocumentRef`2");
        SetsRequiredMembersAttribute = compilation.GetTypeByMetadataName("System.Diagnostics.CodeAnalysis.SetsRequiredMembersAttribute");
    }

    /// <summary>The table of <paramref name="compilation"/>, built on first use and kept while the compilation lives.</summary>
    public static KnownTypes For(Compilation compilation) => Cache.GetValue(compilation, static c => new KnownTypes(c));

    /// <summary>The compilation the symbols come from (for the rare semantic question a symbol does not answer).</summary>
    public Compilation Compilation { get; }

    /// <summary>The assembly the generated code is compiled into.</summary>
    public IAssemblySymbol Assembly { get; }

    public INamedTypeSymbol? ObjectId { get; }
    public INamedTypeSymbol? Guid { get; }
    public INamedTypeSymbol? DateTimeOffset { get; }
    public INamedTypeSymbol? TimeSpan { get; }
    public INamedTypeSymbol? DateOnly { get; }
    public INamedTypeSymbol? TimeOnly { get; }
    public INamedTypeSymbol? ReadOnlyMemory { get; }
    public INamedTypeSymbol? List { get; }
    public INamedTypeSymbol? IList { get; }
    public INamedTypeSymbol? IReadOnlyList { get; }
    public INamedTypeSymbol? ICollection { get; }
    public INamedTypeSymbol? IReadOnlyCollection { get; }
    public INamedTypeSymbol? HashSet { get; }
    public INamedTypeSymbol? ISet { get; }
    public INamedTypeSymbol? IReadOnlySet { get; }
    public INamedTypeSymbol? Dictionary { get; }
    public INamedTypeSymbol? IDictionary { get; }
    public INamedTypeSymbol? IReadOnlyDictionary { get; }
    public INamedTypeSymbol? BsonIdAttribute { get; }
    public INamedTypeSymbol? BsonIgnoreAttribute { get; }
    public INamedTypeSymbol? BsonFieldAttribute { get; }
    public INamedTypeSymbol? DerivedTypeAttribute { get; }
    public INamedTypeSymbol? DocumentAttribute { get; }
    public INamedTypeSymbol? DbContext { get; }
    public INamedTypeSymbol? DocumentCollection { get; }
    public INamedTypeSymbol? DocumentRef { get; }
    public INamedTypeSymbol? SetsRequiredMembersAttribute { get; }

    /// <summary>Whether code generated into <see cref="Assembly"/> can use the symbol (and every type enclosing it).</summary>
    public bool IsAccessible(ISymbol symbol)
    {
        for (var current = symbol; current is not null && current is not INamespaceSymbol; current = current.ContainingType)
        {
            switch (current.DeclaredAccessibility)
            {
                case Accessibility.Public:
                    break;
                case Accessibility.Internal:
                case Accessibility.ProtectedOrInternal:
                    if (!SymbolEqualityComparer.Default.Equals(current.ContainingAssembly, Assembly))
                    {
                        return false;
                    }

                    break;
                default:
                    return false;
            }
        }

        return true;
    }

    public static bool Is(ITypeSymbol? type, INamedTypeSymbol? known)
        => known is not null && SymbolEqualityComparer.Default.Equals(type, known);

    public static bool HasAttribute(ISymbol symbol, INamedTypeSymbol? attribute)
        => FindAttribute(symbol, attribute) is not null;

    public static AttributeData? FindAttribute(ISymbol symbol, INamedTypeSymbol? attribute)
    {
        if (attribute is null)
        {
            return null;
        }

        foreach (var data in symbol.GetAttributes())
        {
            if (SymbolEqualityComparer.Default.Equals(data.AttributeClass, attribute))
            {
                return data;
            }
        }

        return null;
    }
}
