using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query.Execution;

/// <summary>Values of field <c>g</c>: every number class at awkward magnitudes, strings beyond the BMP, instants of every kind, arrays.</summary>
internal static class MixedValues
{
    private static readonly string[] Strings = ["a", "ab", "b", "\uE000", "\uD83D\uDE00", "a\uFFFF", "zz", ""];

    private static readonly DateTime Base = new(2024, 3, 1, 12, 0, 0, DateTimeKind.Utc);

    public static BsonValue Next(Random random) => random.Next(11) switch
    {
        0 => random.Next(-3, 4),
        1 => (long)random.Next(-3, 4) * 1_000_000_000_000L,
        2 => random.Next(-3, 4) + 0.25,
        3 => (decimal)random.Next(-3, 4) + 0.5m,
        4 => random.Next(2) == 0 ? 1e300 : double.NaN,
        5 => random.Next(2) == 0 ? ulong.MaxValue : 79_000_000_000_000_000_000_000_000m,
        6 => Strings[random.Next(Strings.Length)],
        7 => Instant(random),
        8 => new BsonArray(Enumerable.Range(0, random.Next(3)).Select(_ => (BsonValue)random.Next(-2, 3))),
        9 => BsonValue.Null,
        _ => random.Next(2) == 0,
    };

    public static QueryFilter Filter(Random random)
    {
        var value = Next(random);
        while (value.IsArray)
        {
            value = Next(random);
        }

        return random.Next(8) switch
        {
            0 => QueryFilter.Eq("g", value),
            1 => QueryFilter.Gt("g", value),
            2 => QueryFilter.Gte("g", value),
            3 => QueryFilter.Lt("g", value),
            4 => QueryFilter.Lte("g", value),
            5 => QueryFilter.In("g", new BsonArray([value, Next(random).IsArray ? 1 : Next(random)])),
            6 => QueryFilter.And(QueryFilter.Gte("g", value), QueryFilter.Lt("g", Next(random).IsArray ? 2 : Next(random))),
            _ => QueryFilter.StartsWith("g", Strings[random.Next(Strings.Length)]),
        };
    }

    private static BsonValue Instant(Random random)
    {
        var at = Base.AddHours(random.Next(-30, 30));
        return random.Next(3) switch
        {
            0 => at,
            1 => DateTime.SpecifyKind(at, DateTimeKind.Unspecified),
            _ => new DateTimeOffset(at.Ticks, TimeSpan.FromHours(random.Next(-5, 6))),
        };
    }
}
