using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Query;

/// <summary>
/// Decides when an ordered scan may stop reading a key class. Within one key tag, key order
/// matches the query's value order for most types, so once a document's first sort key is
/// strictly worse than the worst document kept, every later key of that tag is worse too. The
/// exceptions are handled here: strings (keys order by code point, the sort by UTF-16 unit — the
/// two agree relative to a string without surrogates or U+E000..U+FFFF), instants (DateTime keys
/// are raw ticks while Local values sort by their UTC instant: compared with a margin wider than
/// any UTC offset) and binaries (never: the sort compares lengths first).
/// </summary>
internal static class ScanOrder
{
    private static readonly long InstantMarginTicks = TimeSpan.FromHours(30).Ticks;

    /// <param name="key">The current entry's key.</param>
    /// <param name="run">The run it belongs to.</param>
    /// <param name="component">The key component holding the first sort key.</param>
    /// <param name="current">The current document's first sort key.</param>
    /// <param name="worst">The worst kept document's first sort key.</param>
    /// <param name="descending">Direction of the first sort key (and of the scan).</param>
    /// <param name="multiKey">
    /// The index may hold several entries per document: a document's sort key (its smallest or
    /// largest value) then has its own entry only when the run covers every key of the component.
    /// </param>
    public static bool IsPastInKeyClass(ReadOnlySpan<byte> key, ScanRun run, int component, BsonValue current, BsonValue worst, bool descending, bool multiKey)
    {
        if (component > run.PrefixComponents || key.Length <= run.PrefixBytes)
        {
            return false;
        }

        if (multiKey && (component < run.PrefixComponents || !CoversComponent(run)))
        {
            return false;
        }

        var order = current.CompareTo(worst);
        if (descending ? order >= 0 : order <= 0)
        {
            return false;
        }

        var tag = (KeyType)key[run.PrefixBytes];
        var sameClass = BsonValueComparer.SameTypeClass(current, worst);
        switch (tag)
        {
            case KeyType.Null:
                return current.IsNull;
            case KeyType.Number:
                return current.IsNumeric;
            case KeyType.String:
                return current.IsString && (!sameClass || HasNoHighUnits(worst.AsString));
            case KeyType.ObjectId:
                return current.Type == BsonType.ObjectId;
            case KeyType.Boolean:
                return current.Type == BsonType.Boolean;
            case KeyType.TimeSpan:
                return current.Type == BsonType.TimeSpan;
            case KeyType.Timestamp or KeyType.MinKey or KeyType.MaxKey:
                return current.Type == (tag == KeyType.Timestamp ? BsonType.Timestamp : tag == KeyType.MinKey ? BsonType.MinKey : BsonType.MaxKey);
            case KeyType.DateOnly:
                return current.Type == BsonType.DateOnly;
            case KeyType.TimeOnly:
                return current.Type == BsonType.TimeOnly;
            case KeyType.DateTime or KeyType.DateTimeOffset:
                if (current.Type is not (BsonType.DateTime or BsonType.DateTimeOffset))
                {
                    return false;
                }

                if (!sameClass)
                {
                    return true;
                }

                var shifted = KeyPieces.OrderingTicks(current) + (descending ? InstantMarginTicks : -InstantMarginTicks);
                var limit = KeyPieces.OrderingTicks(worst);
                return descending ? shifted < limit : shifted > limit;
            default:
                return false;
        }
    }

    /// <summary>Whether the run leaves its first free component unbounded (only the shared prefix is fixed).</summary>
    private static bool CoversComponent(ScanRun run) =>
        (run.Lower is null || (run.Lower.Length == run.PrefixBytes && run.LowerInclusive))
        && (run.Upper is null || (run.Upper.Length == run.PrefixBytes && run.UpperInclusive));

    private static bool HasNoHighUnits(string text)
    {
        foreach (var c in text)
        {
            if (c >= '\uD800')
            {
                return false;
            }
        }

        return true;
    }
}
