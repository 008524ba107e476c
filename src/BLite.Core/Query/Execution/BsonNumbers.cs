using BLite.Bson;

namespace BLite.Core.Query;

internal static class BsonNumbers
{
    /// <summary>An integral value (or a double / decimal holding a whole number) as an Int64.</summary>
    public static bool TryGetInt64(BsonValue value, out long result)
    {
        switch (value.Type)
        {
            case BsonType.Int32 or BsonType.Int64:
                result = value.ToInt64();
                return true;
            case BsonType.UInt64 when value.AsUInt64 <= long.MaxValue:
                result = (long)value.AsUInt64;
                return true;
            case BsonType.Double when value.AsDouble is var d && d == Math.Floor(d) && d >= long.MinValue && d < 9.2233720368547758E18:
                result = (long)d;
                return true;
            case BsonType.Decimal128 when value.AsDecimal128.TryToInt64(out var whole):
                result = whole;
                return true;
            default:
                result = 0;
                return false;
        }
    }
}
