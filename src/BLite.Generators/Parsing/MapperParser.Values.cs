using BLite.Generators.Model;
using Microsoft.CodeAnalysis;

namespace BLite.Generators.Parsing;

internal sealed partial class MapperParser
{
    /// <summary>The value shape of <paramref name="type"/>; reports BLITE001 and returns null when there is none.</summary>
    private ValueSpec? ResolveValue(ITypeSymbol type, ISymbol member)
    {
        if (type.TypeKind == TypeKind.Error)
        {
            // The compiler already reports the unknown type; a mapper for it could not compile.
            _failed = true;
            return null;
        }

        var scalar = ScalarKind(type);
        if (scalar is { } kind)
        {
            return Value(kind, type);
        }

        if (type is IArrayTypeSymbol array)
        {
            if (array.Rank != 1)
            {
                return Unsupported(member, type, "multi-dimensional arrays are not supported; use a jagged array or a list");
            }

            if (array.ElementType.SpecialType == SpecialType.System_Byte)
            {
                return Value(ValueKind.Binary, type);
            }

            if (array.ElementType.SpecialType == SpecialType.System_Single)
            {
                return Value(ValueKind.Float32Vector, type);
            }

            return ElementOf(ValueKind.Collection, CollectionKind.Array, type, array.ElementType, member);
        }

        if (type is not INamedTypeSymbol named)
        {
            return Unsupported(member, type, "only classes, structs, enums, arrays and the supported scalars and collections can be stored");
        }

        if (named.OriginalDefinition.SpecialType == SpecialType.System_Nullable_T)
        {
            var inner = ResolveValue(named.TypeArguments[0], member);
            return inner is null ? null : Value(ValueKind.Nullable, type) with { Element = inner };
        }

        if (KnownTypes.Is(named.OriginalDefinition, _known.ReadOnlyMemory) && named.TypeArguments[0].SpecialType == SpecialType.System_Single)
        {
            return Value(ValueKind.Float32VectorMemory, type);
        }

        if (named.TypeKind == TypeKind.Enum)
        {
            var underlying = ResolveValue(named.EnumUnderlyingType!, member);
            return underlying is null ? null : Value(ValueKind.Enum, type) with { Element = underlying };
        }

        if (named.IsGenericType && CollectionKindOf(named) is { } collection)
        {
            if (collection is CollectionKind.Dictionary or CollectionKind.IDictionary or CollectionKind.IReadOnlyDictionary)
            {
                if (named.TypeArguments[0].SpecialType != SpecialType.System_String)
                {
                    return Unsupported(member, type, "dictionary keys must be strings (they become field names)");
                }

                return ElementOf(ValueKind.Dictionary, collection, type, named.TypeArguments[1], member);
            }

            return ElementOf(ValueKind.Collection, collection, type, named.TypeArguments[0], member);
        }

        return ResolveObject(named, member);
    }

    private ValueSpec? ResolveObject(INamedTypeSymbol type, ISymbol member)
    {
        if (type.TypeKind is not (TypeKind.Class or TypeKind.Struct) || type.SpecialType != SpecialType.None)
        {
            return Unsupported(member, type, type.SpecialType == SpecialType.System_Object || type.TypeKind == TypeKind.Dynamic
                ? "object has no fixed shape to generate a serializer for"
                : "interfaces, delegates and this kind of type have no C-BSON mapping");
        }

        if (type.IsGenericType)
        {
            return Unsupported(member, type, "generic types other than the supported collections cannot be embedded documents");
        }

        if (type.IsRefLikeType)
        {
            return Unsupported(member, type, "ref structs cannot be stored");
        }

        var ns = type.ContainingNamespace?.ToDisplayString() ?? "";
        if (ns == "System" || ns.StartsWith("System.", System.StringComparison.Ordinal) || ns == "Microsoft" || ns.StartsWith("Microsoft.", System.StringComparison.Ordinal))
        {
            return Unsupported(member, type, "framework types other than the supported scalars and collections have no C-BSON mapping");
        }

        if (ns == "BLite.Bson" && type.Name is "BsonDecimal128" or "BsonRegex" or "BsonTimestamp" or "BsonJavaScript"
            or "BsonJavaScriptWithScope" or "BsonSymbol" or "BsonDbPointer")
        {
            return Unsupported(member, type, "the MongoDB interop types are held by schemaless BsonDocuments; a typed member would store an embedded document instead of the BSON type (use decimal for Decimal128 values)");
        }

        if (!_known.IsAccessible(type))
        {
            Report(DiagnosticDescriptors.InaccessibleType, LocationOf(member), TypeNames.Display(type), "the generated mapper in the same assembly cannot see it (private or protected nesting, or internal to another assembly)");
            return null;
        }

        var index = GetOrAddObjectType(type, LocationOf(member));
        var value = Value(ValueKind.Object, type) with { TypeIndex = index };
        foreach (var attribute in type.GetAttributes())
        {
            if (SymbolEqualityComparer.Default.Equals(attribute.AttributeClass, _known.DerivedTypeAttribute))
            {
                return value with { IsPolymorphic = true };
            }
        }

        return value;
    }

    private ValueSpec? ElementOf(ValueKind kind, CollectionKind collection, ITypeSymbol type, ITypeSymbol elementType, ISymbol member)
    {
        var element = ResolveValue(elementType, member);
        return element is null ? null : Value(kind, type) with { Element = element, Collection = collection };
    }

    private ValueSpec? Unsupported(ISymbol member, ITypeSymbol type, string reason)
    {
        Report(DiagnosticDescriptors.UnsupportedMemberType, LocationOf(member), Qualified(member), TypeNames.Display(type), reason);
        return null;
    }

    private static ValueSpec Value(ValueKind kind, ITypeSymbol type)
        => new(kind, TypeNames.Plain(type), TypeNames.WithAnnotations(type), type.IsReferenceType);

    private ValueKind? ScalarKind(ITypeSymbol type)
    {
        switch (type.SpecialType)
        {
            case SpecialType.System_String: return ValueKind.String;
            case SpecialType.System_Boolean: return ValueKind.Boolean;
            case SpecialType.System_Double: return ValueKind.Double;
            case SpecialType.System_Single: return ValueKind.Single;
            case SpecialType.System_Int32: return ValueKind.Int32;
            case SpecialType.System_Int16: return ValueKind.Int16;
            case SpecialType.System_SByte: return ValueKind.SByte;
            case SpecialType.System_Byte: return ValueKind.Byte;
            case SpecialType.System_UInt16: return ValueKind.UInt16;
            case SpecialType.System_Char: return ValueKind.Char;
            case SpecialType.System_Int64: return ValueKind.Int64;
            case SpecialType.System_UInt32: return ValueKind.UInt32;
            case SpecialType.System_UInt64: return ValueKind.UInt64;
            case SpecialType.System_Decimal: return ValueKind.Decimal;
            case SpecialType.System_DateTime: return ValueKind.DateTime;
        }

        if (KnownTypes.Is(type, _known.Guid))
        {
            return ValueKind.Guid;
        }

        if (KnownTypes.Is(type, _known.ObjectId))
        {
            return ValueKind.ObjectId;
        }

        if (KnownTypes.Is(type, _known.DateTimeOffset))
        {
            return ValueKind.DateTimeOffset;
        }

        if (KnownTypes.Is(type, _known.TimeSpan))
        {
            return ValueKind.TimeSpan;
        }

        if (KnownTypes.Is(type, _known.DateOnly))
        {
            return ValueKind.DateOnly;
        }

        return KnownTypes.Is(type, _known.TimeOnly) ? ValueKind.TimeOnly : null;
    }

    private CollectionKind? CollectionKindOf(INamedTypeSymbol type)
    {
        var definition = type.OriginalDefinition;
        if (KnownTypes.Is(definition, _known.List)) return CollectionKind.List;
        if (KnownTypes.Is(definition, _known.IList)) return CollectionKind.IList;
        if (KnownTypes.Is(definition, _known.IReadOnlyList)) return CollectionKind.IReadOnlyList;
        if (KnownTypes.Is(definition, _known.ICollection)) return CollectionKind.ICollection;
        if (KnownTypes.Is(definition, _known.IReadOnlyCollection)) return CollectionKind.IReadOnlyCollection;
        if (definition.SpecialType == SpecialType.System_Collections_Generic_IEnumerable_T) return CollectionKind.IEnumerable;
        if (KnownTypes.Is(definition, _known.HashSet)) return CollectionKind.HashSet;
        if (KnownTypes.Is(definition, _known.ISet)) return CollectionKind.ISet;
        if (KnownTypes.Is(definition, _known.IReadOnlySet)) return CollectionKind.IReadOnlySet;
        if (KnownTypes.Is(definition, _known.Dictionary)) return CollectionKind.Dictionary;
        if (KnownTypes.Is(definition, _known.IDictionary)) return CollectionKind.IDictionary;
        if (KnownTypes.Is(definition, _known.IReadOnlyDictionary)) return CollectionKind.IReadOnlyDictionary;
        return null;
    }
}
