using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Documents;

/// <summary>
/// Finds the values at a field path in raw C-BSON bytes without materialising the document.
/// Arrays fan out: a path that reaches an array yields each element (multikey), and a path that
/// continues through an array of documents continues into each of them. Only the first
/// occurrence of a field in a document counts.
/// </summary>
internal static class FieldValueExtractor
{
    /// <summary>
    /// Appends every value at <paramref name="path"/>; appends exactly one null when the path
    /// yields nothing (missing field, empty array), so every document has at least one entry.
    /// </summary>
    public static void Collect(ReadOnlySpan<byte> document, CompiledPath path, BsonFieldDictionary fields, List<FieldValueRef> output)
    {
        var before = output.Count;
        if (path.TryResolve(fields, out var ids))
        {
            CollectFromDocument(document, 0, ids, output);
        }

        if (output.Count == before)
        {
            output.Add(FieldValueRef.Null);
        }
    }

    /// <summary>The raw value of a top-level field, or false when the document lacks it.</summary>
    public static bool TryFindTopLevel(ReadOnlySpan<byte> document, ushort fieldId, out FieldValueRef value)
    {
        var reader = new BsonSpanReader(document);
        reader.ReadDocumentStart();
        while (reader.TryReadFieldHeader(out var type, out var id))
        {
            var start = reader.Position;
            var raw = reader.ReadRawValue(type);
            if (id == fieldId)
            {
                value = new FieldValueRef(type, start, raw.Length);
                return true;
            }
        }

        value = default;
        return false;
    }

    private static void CollectFromDocument(ReadOnlySpan<byte> document, int baseOffset, ReadOnlySpan<ushort> ids, List<FieldValueRef> output)
    {
        var reader = new BsonSpanReader(document);
        reader.ReadDocumentStart();
        while (reader.TryReadFieldHeader(out var type, out var id))
        {
            var start = reader.Position;
            var raw = reader.ReadRawValue(type);
            if (id != ids[0])
            {
                continue;
            }

            var absolute = baseOffset + start;
            if (ids.Length == 1)
            {
                if (type == BsonType.Array)
                {
                    CollectArrayElements(raw, absolute, output);
                }
                else
                {
                    output.Add(new FieldValueRef(type, absolute, raw.Length));
                }
            }
            else if (type == BsonType.Document)
            {
                CollectFromDocument(raw, absolute, ids[1..], output);
            }
            else if (type == BsonType.Array)
            {
                CollectThroughArray(raw, absolute, ids[1..], output);
            }

            return;
        }
    }

    private static void CollectArrayElements(ReadOnlySpan<byte> array, int baseOffset, List<FieldValueRef> output)
    {
        var reader = new BsonSpanReader(array);
        reader.ReadArrayStart();
        while (reader.TryReadItemHeader(out var type))
        {
            var start = reader.Position;
            var raw = reader.ReadRawValue(type);
            output.Add(new FieldValueRef(type, baseOffset + start, raw.Length));
        }
    }

    /// <summary>
    /// The path continues below an array: each document element is searched for the rest of the
    /// path, and an element lacking it contributes a null (it is a document without the field).
    /// Scalar elements have no sub-fields and contribute nothing.
    /// </summary>
    private static void CollectThroughArray(ReadOnlySpan<byte> array, int baseOffset, ReadOnlySpan<ushort> remaining, List<FieldValueRef> output)
    {
        var reader = new BsonSpanReader(array);
        reader.ReadArrayStart();
        while (reader.TryReadItemHeader(out var type))
        {
            var start = reader.Position;
            var raw = reader.ReadRawValue(type);
            if (type != BsonType.Document)
            {
                continue;
            }

            var before = output.Count;
            CollectFromDocument(raw, baseOffset + start, remaining, output);
            if (output.Count == before)
            {
                output.Add(FieldValueRef.Null);
            }
        }
    }
}
