using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Query;

/// <summary>
/// Turns query values into key pieces. Queries compare by value across types of one class; every
/// number is one key class ordered by exact value (docs/format.md 4.1), so a number is one piece
/// whatever its type. DateTime and DateTimeOffset keep separate tags, and binary data two (UUID
/// and other): a value yields one piece per key class the stored data might use, widened outward
/// where a conversion may round, because the executor re-checks the whole filter on each fetched
/// document.
/// </summary>
internal static class KeyPieces
{
    /// <summary>More than any offset a Local DateTime can have (±14 h), so ranges on raw ticks cover every Kind.</summary>
    private static readonly long InstantMarginTicks = TimeSpan.FromHours(15).Ticks;

    public static List<KeyPiece> ForEquality(BsonValue value, BsonFieldDictionary fields)
    {
        var pieces = new List<KeyPiece>(3);
        switch (BsonValueComparer.TypeClass(value.Type))
        {
            case 5:
                pieces.Add(KeyPiece.Tags(KeyType.Binary, KeyType.Guid));
                break;
            case 8:
                AddInstantRange(new RangeBound(value, true), new RangeBound(value, true), fields, pieces);
                break;
            default:
                pieces.Add(KeyPiece.Point(KeyPiece.Encode(fields, value)));
                break;
        }

        return pieces;
    }

    /// <summary>
    /// The key of a value whose equality is a single point (any class but instants and binary
    /// data, which <see cref="ForEquality"/> turns into intervals).
    /// </summary>
    public static bool TryPoint(BsonValue value, BsonFieldDictionary fields, out byte[] key)
    {
        if (BsonValueComparer.TypeClass(value.Type) is 5 or 8)
        {
            key = [];
            return false;
        }

        key = KeyPiece.Encode(fields, value);
        return true;
    }

    /// <summary>Pieces for an interval of one type class; at least one side is present.</summary>
    public static List<KeyPiece> ForRange(RangeBound? lower, RangeBound? upper, BsonFieldDictionary fields)
    {
        var pieces = new List<KeyPiece>(3);
        var sample = (lower ?? upper)!.Value.Value;
        switch (BsonValueComparer.TypeClass(sample.Type))
        {
            case 5:
                pieces.Add(KeyPiece.Tags(KeyType.Binary, KeyType.Guid));
                break;
            case 8:
                AddInstantRange(lower, upper, fields, pieces);
                break;
            default:
                var tag = TagOf(sample.Type);
                pieces.Add(KeyPiece.Interval(
                    lower is { } l ? KeyPiece.Encode(fields, l.Value) : [(byte)tag], lower?.Inclusive ?? true,
                    upper is { } u ? KeyPiece.Encode(fields, u.Value) : [(byte)tag], upper?.Inclusive ?? true));
                break;
        }

        return pieces;
    }

    private static KeyType TagOf(BsonType type) => type switch
    {
        BsonType.Int32 or BsonType.Int64 or BsonType.UInt64 or BsonType.Double or BsonType.Decimal128 => KeyType.Number,
        BsonType.String => KeyType.String,
        BsonType.ObjectId => KeyType.ObjectId,
        BsonType.Boolean => KeyType.Boolean,
        BsonType.TimeSpan => KeyType.TimeSpan,
        BsonType.DateOnly => KeyType.DateOnly,
        BsonType.TimeOnly => KeyType.TimeOnly,
        BsonType.Timestamp => KeyType.Timestamp,
        BsonType.MinKey => KeyType.MinKey,
        BsonType.MaxKey => KeyType.MaxKey,
        _ => throw new ArgumentException($"A {type} value has no single key class."),
    };

    /// <summary>
    /// DateTime keys hold raw ticks (no Kind) while queries order Local values by their UTC
    /// instant; DateTimeOffset keys hold the UTC instant. Both classes are scanned on ticks
    /// widened by more than any UTC offset.
    /// </summary>
    private static void AddInstantRange(RangeBound? lower, RangeBound? upper, BsonFieldDictionary fields, List<KeyPiece> pieces)
    {
        var low = lower is { } l ? (long?)Math.Max(DateTime.MinValue.Ticks, OrderingTicks(l.Value) - InstantMarginTicks) : null;
        var high = upper is { } u ? (long?)Math.Min(DateTime.MaxValue.Ticks, OrderingTicks(u.Value) + InstantMarginTicks) : null;
        if (low > high)
        {
            return;
        }

        pieces.Add(KeyPiece.Interval(
            low is { } a ? KeyPiece.Encode(fields, new DateTime(a, DateTimeKind.Utc)) : [(byte)KeyType.DateTime], true,
            high is { } b ? KeyPiece.Encode(fields, new DateTime(b, DateTimeKind.Utc)) : [(byte)KeyType.DateTime], true));
        pieces.Add(KeyPiece.Interval(
            low is { } c ? DateTimeOffsetInstantPrefix(fields, c) : [(byte)KeyType.DateTimeOffset], true,
            high is { } d ? DateTimeOffsetInstantPrefix(fields, d) : [(byte)KeyType.DateTimeOffset], true));
    }

    internal static long OrderingTicks(BsonValue value) => value.Type == BsonType.DateTimeOffset
        ? value.AsDateTimeOffset.UtcTicks
        : value.AsDateTime is { Kind: DateTimeKind.Local } local ? local.ToUniversalTime().Ticks : value.AsDateTime.Ticks;

    /// <summary>The tag and UTC ticks of a DateTimeOffset key, without its offset bytes: a prefix of every offset.</summary>
    private static byte[] DateTimeOffsetInstantPrefix(BsonFieldDictionary fields, long utcTicks)
    {
        var full = KeyPiece.Encode(fields, new DateTimeOffset(utcTicks, TimeSpan.Zero));
        return full.AsSpan(0, 9).ToArray();
    }
}
