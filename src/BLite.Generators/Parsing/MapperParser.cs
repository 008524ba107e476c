using System.Collections.Generic;
using System.Linq;
using System.Threading;
using BLite.Bson.Mapping;
using BLite.Generators.Model;
using Microsoft.CodeAnalysis;

namespace BLite.Generators.Parsing;

/// <summary>
/// Turns a document type and every type reachable from it into a <see cref="MapperSpec"/>, or into
/// diagnostics explaining what cannot be mapped. Symbols stay inside this class: the spec holds
/// only strings, enums and equatable arrays so the pipeline can cache it.
/// </summary>
internal sealed partial class MapperParser
{
    private readonly KnownTypes _known;
    private readonly CancellationToken _cancellationToken;
    private readonly Location? _fallbackLocation;
    private readonly List<ObjectTypeSpec?> _types = new();
    private readonly List<ISymbol?> _idMembers = new();
    private readonly Dictionary<ITypeSymbol, int> _typeIndices = new(SymbolEqualityComparer.Default);
    private readonly HashSet<string> _methodSuffixes = new();
    private readonly HashSet<int> _derivedTypeIndices = new();
    private readonly List<DiagnosticInfo> _diagnostics = new();
    private bool _failed;

    private MapperParser(KnownTypes known, Location? fallbackLocation, CancellationToken cancellationToken)
    {
        _known = known;
        _fallbackLocation = fallbackLocation;
        _cancellationToken = cancellationToken;
    }

    /// <summary>Parses one document type; <paramref name="useSite"/> is where errors about the type itself go.</summary>
    public static DocumentResult Parse(INamedTypeSymbol documentType, KnownTypes known, Location? useSite, CancellationToken cancellationToken)
    {
        var parser = new MapperParser(known, useSite ?? documentType.Locations.FirstOrDefault(), cancellationToken);
        var mapper = parser.ParseDocument(documentType);
        return new DocumentResult(mapper, parser._diagnostics.ToEquatableArray());
    }

    /// <summary>The generated mapper's name: containing types and the type name, then "DocumentMapper".</summary>
    public static string MapperNameFor(INamedTypeSymbol documentType)
    {
        var name = documentType.Name;
        for (var outer = documentType.ContainingType; outer is not null; outer = outer.ContainingType)
        {
            name = outer.Name + "_" + name;
        }

        return name + "DocumentMapper";
    }

    /// <summary>The [BLiteDocument] collection name, or the type name.</summary>
    public static string CollectionNameFor(INamedTypeSymbol documentType, KnownTypes known) =>
        ExplicitCollectionNameFor(documentType, known) ?? documentType.Name;

    /// <summary>The collection name given by [BLiteDocument("name")], or null.</summary>
    public static string? ExplicitCollectionNameFor(INamedTypeSymbol documentType, KnownTypes known)
    {
        var attribute = KnownTypes.FindAttribute(documentType, known.DocumentAttribute);
        return attribute is { ConstructorArguments.Length: 1 } && attribute.ConstructorArguments[0].Value is string { Length: > 0 } name ? name : null;
    }

    private MapperSpec? ParseDocument(INamedTypeSymbol documentType)
    {
        if (documentType.TypeKind != TypeKind.Class || documentType.IsGenericType || documentType.IsStatic)
        {
            Report(DiagnosticDescriptors.DocumentNotClass, _fallbackLocation, TypeNames.Display(documentType));
            return null;
        }

        if (!_known.IsAccessible(documentType))
        {
            Report(DiagnosticDescriptors.InaccessibleType, _fallbackLocation, TypeNames.Display(documentType), "the generated mapper in the same assembly cannot see it (private or protected nesting, or internal to another assembly)");
            return null;
        }

        var rootIndex = GetOrAddObjectType(documentType, _fallbackLocation);
        var idMember = _idMembers[rootIndex];
        if (idMember is null)
        {
            if (!_failed)
            {
                Report(DiagnosticDescriptors.MissingId, LocationOf(documentType), TypeNames.Display(documentType));
            }

            return null;
        }

        var idType = idMember is IPropertySymbol idProperty ? idProperty.Type : ((IFieldSymbol)idMember).Type;
        var idConverted = !IsSupportedIdType(idType);
        if (idConverted && !IsConvertibleIdType(idType))
        {
            Report(DiagnosticDescriptors.UnsupportedIdType, LocationOf(idMember), idMember.Name, TypeNames.Display(documentType), TypeNames.Display(idType));
            return null;
        }

        var (idSet, idSetTarget) = ResolveIdSetter(idMember);
        if (_failed || _diagnostics.Count > 0)
        {
            return null;
        }

        var types = new ObjectTypeSpec[_types.Count];
        for (var i = 0; i < types.Length; i++)
        {
            types[i] = _derivedTypeIndices.Contains(i) ? _types[i]! with { IsDerivedType = true } : _types[i]!;
        }

        return new MapperSpec(
            documentType.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString() : null,
            MapperNameFor(documentType),
            types[rootIndex].TypeName,
            TypeNames.Plain(idType),
            CollectionNameFor(documentType, _known),
            idSet,
            idSetTarget,
            new EquatableArray<ObjectTypeSpec>(types),
            CollectPaths(types),
            idConverted);
    }

    /// <summary>
    /// An id type BLite does not store natively but a run-time IdConverter can map to a key: a
    /// concrete class or struct. Object, interfaces, arrays, enums, nullables and type parameters
    /// could never be converted reliably and stay BLITE004.
    /// </summary>
    private static bool IsConvertibleIdType(ITypeSymbol type)
        => type.TypeKind is TypeKind.Class or TypeKind.Struct
            && type.SpecialType == SpecialType.None
            && type.OriginalDefinition.SpecialType != SpecialType.System_Nullable_T
            && !type.IsAnonymousType;

    private ValueSpec? ConvertedIdValue(ITypeSymbol type)
        => IsConvertibleIdType(type) ? new ValueSpec(ValueKind.ConvertedId, TypeNames.Plain(type), TypeNames.WithAnnotations(type), type.IsReferenceType) : null;

    private bool IsSupportedIdType(ITypeSymbol type)
        => type.SpecialType is SpecialType.System_Int32 or SpecialType.System_Int64 or SpecialType.System_String
            || KnownTypes.Is(type, _known.ObjectId)
            || KnownTypes.Is(type, _known.Guid);

    private (IdSetKind Kind, string Target) ResolveIdSetter(ISymbol idMember)
    {
        if (idMember is IFieldSymbol field)
        {
            return !field.IsReadOnly && _known.IsAccessible(field)
                ? (IdSetKind.Assign, field.Name)
                : (IdSetKind.FieldAccessor, field.Name);
        }

        var property = (IPropertySymbol)idMember;
        if (property.SetMethod is { } setter)
        {
            return !setter.IsInitOnly && _known.IsAccessible(setter)
                ? (IdSetKind.Assign, property.Name)
                : (IdSetKind.SetterAccessor, setter.Name);
        }

        if (FindBackingField(property) is { } backingField)
        {
            return (IdSetKind.FieldAccessor, backingField.Name);
        }

        Report(DiagnosticDescriptors.MemberNotSettable, LocationOf(property), property.ContainingType.Name + "." + property.Name);
        return (IdSetKind.Assign, property.Name);
    }

    private int GetOrAddObjectType(INamedTypeSymbol type, Location? useSite)
    {
        if (_typeIndices.TryGetValue(type, out var existing))
        {
            return existing;
        }

        _cancellationToken.ThrowIfCancellationRequested();
        var index = _types.Count;
        _typeIndices.Add(type, index);
        _types.Add(null);
        _idMembers.Add(null);
        var suffix = TypeNames.Sanitize(type.Name);
        if (!_methodSuffixes.Add(suffix))
        {
            suffix += index.ToString(System.Globalization.CultureInfo.InvariantCulture);
            _methodSuffixes.Add(suffix);
        }

        _types[index] = BuildObjectType(type, suffix, index, useSite);
        return index;
    }

    private static IFieldSymbol? FindBackingField(IPropertySymbol property)
    {
        foreach (var member in property.ContainingType.GetMembers())
        {
            if (member is IFieldSymbol field && SymbolEqualityComparer.Default.Equals(field.AssociatedSymbol, property))
            {
                return field;
            }
        }

        return null;
    }

    private Location? LocationOf(ISymbol symbol)
    {
        foreach (var location in symbol.Locations)
        {
            if (location.IsInSource)
            {
                return location;
            }
        }

        return _fallbackLocation;
    }

    private void Report(DiagnosticDescriptor descriptor, Location? location, params string[] arguments)
    {
        _failed = true;
        _diagnostics.Add(DiagnosticInfo.Create(descriptor, location, arguments));
    }
}
