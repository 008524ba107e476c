using System.Collections.Generic;
using BLite.Generators.Model;

namespace BLite.Generators.Parsing;

internal sealed partial class MapperParser
{
    // A recursive type is not expanded again below itself, but sibling paths can still multiply; the
    // cap keeps a pathological model from generating an enormous table.
    private const int MaxPaths = 1024;

    /// <summary>Every member path reachable from the document type, for the generated field table.</summary>
    private static EquatableArray<FieldPathSpec> CollectPaths(ObjectTypeSpec[] types)
    {
        var paths = new List<FieldPathSpec>();
        var onPath = new HashSet<int> { 0 };
        CollectPaths(types, 0, "", new List<string>(), -1, onPath, paths);
        return paths.ToEquatableArray();
    }

    private static void CollectPaths(ObjectTypeSpec[] types, int typeIndex, string memberPrefix, List<string> storedPrefix, int arraySegment, HashSet<int> onPath, List<FieldPathSpec> paths)
    {
        foreach (var member in types[typeIndex].Members)
        {
            if (paths.Count >= MaxPaths)
            {
                return;
            }

            var memberPath = memberPrefix + member.Name.TrimStart('@');
            var stored = new List<string>(storedPrefix) { member.StoredName };
            var value = Unwrap(member.Value);
            var element = value.Kind == ValueKind.Collection ? Unwrap(value.Element!) : null;
            var nullable = member.Value.IsReferenceType || member.Value.Kind == ValueKind.Nullable;
            paths.Add(new FieldPathSpec(memberPath, stored.ToEquatableArray(), BsonTypeName(value), element is null ? null : BsonTypeName(element), nullable, arraySegment));

            var nested = value.Kind == ValueKind.Object ? value : element is { Kind: ValueKind.Object } ? element : null;
            if (nested is null || !onPath.Add(nested.TypeIndex))
            {
                continue;
            }

            var nestedArraySegment = arraySegment >= 0 || value.Kind != ValueKind.Collection ? arraySegment : stored.Count - 1;
            CollectPaths(types, nested.TypeIndex, memberPath + ".", stored, nestedArraySegment, onPath, paths);
            onPath.Remove(nested.TypeIndex);
        }
    }

    /// <summary>Stands for "the converter's key type", known only at run time.</summary>
    public const string ConvertedIdBsonType = "<ConvertedId>";

    private static ValueSpec Unwrap(ValueSpec value)
        => value.Kind is ValueKind.Nullable or ValueKind.Enum ? Unwrap(value.Element!) : value;

    /// <summary>The BsonType member name a value is stored as (the .NET type mapping of the Bson contract).</summary>
    public static string BsonTypeName(ValueSpec value) => value.Kind switch
    {
        ValueKind.String => "String",
        ValueKind.Boolean => "Boolean",
        ValueKind.Double or ValueKind.Single => "Double",
        ValueKind.Int32 or ValueKind.Int16 or ValueKind.SByte or ValueKind.Byte or ValueKind.UInt16 or ValueKind.Char => "Int32",
        ValueKind.Int64 or ValueKind.UInt32 => "Int64",
        ValueKind.UInt64 => "UInt64",
        ValueKind.Decimal => "Decimal128",
        ValueKind.Guid or ValueKind.Binary or ValueKind.Float32Vector or ValueKind.Float32VectorMemory => "Binary",
        ValueKind.ObjectId => "ObjectId",
        ValueKind.DateTime => "DateTime",
        ValueKind.DateTimeOffset => "DateTimeOffset",
        ValueKind.TimeSpan => "TimeSpan",
        ValueKind.DateOnly => "DateOnly",
        ValueKind.TimeOnly => "TimeOnly",
        ValueKind.Object or ValueKind.Dictionary => "Document",
        ValueKind.Collection => "Array",
        ValueKind.ConvertedId => ConvertedIdBsonType,
        _ => BsonTypeName(value.Element!),
    };
}
