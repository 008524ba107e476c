using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// A <see cref="FieldPath"/> with its names resolved to field ids once per query, walked over raw
/// C-BSON. A path step into an array visits every document element (MongoDB semantics); at the
/// end of the path an array is offered both element by element and as a whole. Elements that are
/// not documents, empty arrays on the way and absent fields make the path "missing" there.
/// </summary>
internal sealed class CompiledPath
{
    private readonly ushort[]? _ids;

    public CompiledPath(FieldPath path, BsonFieldDictionary dictionary)
    {
        Path = path;
        var ids = new ushort[path.Length];
        for (var i = 0; i < ids.Length; i++)
        {
            if (!dictionary.TryGetId(path.Segments[i], out ids[i]))
            {
                // A name never stored cannot be in any document written so far.
                _ids = null;
                return;
            }
        }

        _ids = ids;
    }

    public FieldPath Path { get; }

    /// <summary>True when some value the path reaches passes <paramref name="leaf"/> (or the path is missing somewhere and the leaf accepts missing).</summary>
    public bool Matches(BsonType type, ReadOnlySpan<byte> value, LeafTest leaf)
    {
        if (_ids is null)
        {
            return leaf.MatchesMissing;
        }

        return Visit(type, value, 0, leaf);
    }

    private bool Visit(BsonType type, ReadOnlySpan<byte> value, int depth, LeafTest leaf)
    {
        if (depth == _ids!.Length)
        {
            return leaf.ExpandsArrays && type == BsonType.Array ? VisitArrayLeaf(value, leaf) : leaf.Test(type, value);
        }

        switch (type)
        {
            case BsonType.Document:
                return TryFindField(value, _ids[depth], out var fieldType, out var fieldValue)
                    ? Visit(fieldType, fieldValue, depth + 1, leaf)
                    : leaf.MatchesMissing;
            case BsonType.Array:
                var reader = new BsonSpanReader(value);
                reader.ReadArrayStart();
                var sawItem = false;
                while (reader.TryReadItemHeader(out var itemType))
                {
                    sawItem = true;
                    var item = reader.ReadRawValue(itemType);
                    if (itemType == BsonType.Document ? Visit(itemType, item, depth, leaf) : leaf.MatchesMissing)
                    {
                        return true;
                    }
                }

                return !sawItem && leaf.MatchesMissing;
            default:
                return leaf.MatchesMissing;
        }
    }

    private static bool VisitArrayLeaf(ReadOnlySpan<byte> array, LeafTest leaf)
    {
        var reader = new BsonSpanReader(array);
        reader.ReadArrayStart();
        while (reader.TryReadItemHeader(out var itemType))
        {
            if (leaf.Test(itemType, reader.ReadRawValue(itemType)))
            {
                return true;
            }
        }

        return leaf.Test(BsonType.Array, array);
    }

    /// <summary>Field names are unique within a document, so the first match is the only one.</summary>
    internal static bool TryFindField(ReadOnlySpan<byte> document, ushort id, out BsonType type, out ReadOnlySpan<byte> value)
    {
        var reader = new BsonSpanReader(document);
        reader.ReadDocumentStart();
        while (reader.TryReadFieldHeader(out type, out var fieldId))
        {
            if (fieldId == id)
            {
                value = reader.ReadRawValue(type);
                return true;
            }

            reader.SkipValue(type);
        }

        type = BsonType.Null;
        value = default;
        return false;
    }

    /// <summary>Every value the path reaches (array leaves as their elements), for sorting and projections.</summary>
    public void CollectValues(ReadOnlySpan<byte> document, BsonFieldDictionary dictionary, List<BsonValue> values)
    {
        var collector = new ValueCollector(dictionary, values);
        Matches(BsonType.Document, document, collector);
    }

    private sealed class ValueCollector(BsonFieldDictionary dictionary, List<BsonValue> values) : LeafTest
    {
        public override bool MatchesMissing => false;

        public override bool ExpandsArrays => false;

        public override bool Test(BsonType type, ReadOnlySpan<byte> value)
        {
            if (type == BsonType.Array)
            {
                var reader = new BsonSpanReader(value);
                reader.ReadArrayStart();
                while (reader.TryReadItemHeader(out var itemType))
                {
                    values.Add(RawValues.ToBsonValue(itemType, reader.ReadRawValue(itemType), dictionary));
                }
            }
            else
            {
                values.Add(RawValues.ToBsonValue(type, value, dictionary));
            }

            return false;
        }
    }
}

/// <summary>What a filter checks on each value a path reaches.</summary>
internal abstract class LeafTest
{
    /// <summary>Whether a path that reaches no value passes (true for <c>$eq: null</c>).</summary>
    public abstract bool MatchesMissing { get; }

    /// <summary>Whether an array at the end of the path is tested element by element as well as whole.</summary>
    public virtual bool ExpandsArrays => true;

    public abstract bool Test(BsonType type, ReadOnlySpan<byte> value);
}
