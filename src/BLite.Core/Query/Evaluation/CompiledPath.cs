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
    private ushort[]? _ids;

    /// <summary>
    /// A path whose ids are looked up on demand (<see cref="TryResolve"/>): an index definition
    /// outlives many inserts, and a name unused today may get an id tomorrow. Once every name
    /// has an id it keeps it for the life of the database, so resolved ids are cached.
    /// </summary>
    public CompiledPath(FieldPath path)
    {
        Path = path;
    }

    /// <summary>A path resolved once, for one query: a name never stored cannot be in any document written so far.</summary>
    public CompiledPath(FieldPath path, BsonFieldDictionary dictionary)
        : this(path)
    {
        TryResolve(dictionary, out _);
    }

    public FieldPath Path { get; }

    public int Depth => Path.Length;

    /// <summary>False while some segment has no id yet: then no stored document contains the path.</summary>
    public bool TryResolve(BsonFieldDictionary fields, out ReadOnlySpan<ushort> ids)
    {
        var cached = _ids;
        if (cached is null)
        {
            var resolved = new ushort[Path.Length];
            for (var i = 0; i < resolved.Length; i++)
            {
                if (!fields.TryGetId(Path.Segments[i], out resolved[i]))
                {
                    ids = default;
                    return false;
                }
            }

            _ids = cached = resolved;
        }

        ids = cached;
        return true;
    }

    /// <summary>
    /// The one value the path reaches through documents only (a projection or computed value
    /// reads single values): false when a field is absent or a step meets an array or a scalar.
    /// </summary>
    public bool TryLocateSingle(BsonFieldDictionary fields, BsonType rootType, ReadOnlySpan<byte> root, out BsonType type, out ReadOnlySpan<byte> value)
    {
        type = rootType;
        value = root;
        if (!TryResolve(fields, out var ids))
        {
            return false;
        }

        foreach (var id in ids)
        {
            if (type != BsonType.Document || !TryFindField(value, id, out type, out value))
            {
                return false;
            }
        }

        return true;
    }

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
