using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

/// <summary>
/// Random keys of every encodable type, drawn from small domains so that a random workload
/// hits existing keys often (upserts, deletes and gets that find something).
/// </summary>
internal sealed class RandomKeys(Random random)
{
    private const string Alphabet = "ab\0\u00e9\U0001F600";

    public byte[] Next() => TestKeys.Encode((ref KeyWriter w) => WriteComponent(ref w, random.Next(15)));

    private void WriteComponent(ref KeyWriter w, int kind)
    {
        switch (kind)
        {
            case 0: w.WriteInt32(random.Next(-2000, 2000)); break;
            case 1: w.WriteInt64(Pick64()); break;
            case 2: w.WriteUInt64((ulong)Pick64()); break;
            case 3: w.WriteDouble(PickDouble()); break;
            case 4: w.WriteDecimal(random.Next(-500, 500) / (decimal)Math.Pow(10, random.Next(0, 4))); break;
            case 5: w.WriteString(ShortString()); break;
            case 6: w.WriteGuid(new Guid(Bytes(16, random.Next(300)))); break;
            case 7: w.WriteObjectId(Bytes(12, random.Next(300))); break;
            case 8: w.WriteDateTime(new DateTime(2020, 1, 1).AddMinutes(random.Next(0, 500))); break;
            case 9: if (random.Next(2) == 0) w.WriteNull(); else w.WriteBoolean(random.Next(2) == 0); break;
            case 10:
                w.WriteString(ShortString());
                w.WriteInt32(random.Next(0, 50));
                break;
            case 11:
                if (random.Next(3) == 0) w.WriteNull(); else w.WriteInt32(random.Next(0, 20));
                w.WriteString(ShortString());
                break;
            case 12: w.WriteDateTimeOffset(new DateTimeOffset(2024, 5, 1, 0, random.Next(0, 60), 0, TimeSpan.FromHours(random.Next(-3, 4)))); break;
            case 13: w.WriteTimeSpan(TimeSpan.FromSeconds(random.Next(-300, 300))); break;
            default:
                if (random.Next(2) == 0) w.WriteDateOnly(DateOnly.FromDayNumber(random.Next(738000, 738300)));
                else w.WriteTimeOnly(new TimeOnly(random.Next(0, 24), random.Next(0, 60)));
                break;
        }
    }

    private long Pick64() => new Random(random.Next(500)).NextInt64(long.MinValue, long.MaxValue);

    private double PickDouble() => random.Next(12) switch
    {
        0 => double.NaN,
        1 => -0.0,
        2 => double.NegativeInfinity,
        3 => double.PositiveInfinity,
        _ => random.Next(-1000, 1000) / 8.0,
    };

    private string ShortString()
    {
        var length = random.Next(0, 4);
        var text = new System.Text.StringBuilder();
        var elements = System.Globalization.StringInfo.GetTextElementEnumerator(Alphabet);
        var units = new List<string>();
        while (elements.MoveNext())
            units.Add(elements.GetTextElement());
        for (var i = 0; i < length; i++)
            text.Append(units[random.Next(units.Count)]);
        return text.ToString();
    }

    private static byte[] Bytes(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
