using System.Collections;
using BLite.Bson;

namespace BLite.Linq.Execution;

/// <summary>
/// Converts query values (captured variables, literals) to BSON with the same type mapping the
/// generated serializers use, so a value compares equal to the stored field it came from:
/// small integers and char → Int32, long and uint → Int64, float → Double, enums → their
/// underlying integer, Guid → Binary/Uuid, collections → arrays.
/// </summary>
internal static class ClrBsonConverter
{
    /// <summary>Like <see cref="ToBsonValue(object?)"/>, first offering the value to the source's <paramref name="converter"/>.</summary>
    public static BsonValue ToBsonValue(object? value, IQueryValueConverter? converter) =>
        converter is not null && value is not null && converter.TryToStored(value, out var stored) ? stored : ToBsonValue(value);

    public static BsonValue ToBsonArray(object? value, IQueryValueConverter? converter)
    {
        if (converter is null || value is not IEnumerable sequence || value is string)
        {
            return ToBsonArray(value);
        }

        var array = new BsonArray();
        foreach (var item in sequence)
        {
            array.Add(ToBsonValue(item, converter));
        }

        return array;
    }

    public static BsonValue ToBsonValue(object? value) => value switch
    {
        null => BsonValue.Null,
        BsonValue bson => bson,
        string s => s,
        bool b => b,
        int i => i,
        long l => l,
        double d => d,
        decimal m => m,
        DateTime dt => dt,
        DateTimeOffset dto => dto,
        Guid g => g,
        ObjectId id => id,
        short s16 => s16,
        sbyte s8 => s8,
        byte u8 => u8,
        ushort u16 => u16,
        char c => c,
        uint u32 => u32,
        ulong u64 => u64,
        float f => f,
        TimeSpan ts => ts,
        DateOnly date => date,
        TimeOnly time => time,
        byte[] bytes => bytes,
        BsonDocument document => document,
        BsonArray array => array,
        Enum e => FromEnum(e),
        IDocumentReference reference => ToBsonValue(reference.BoxedId),
        IEnumerable sequence => ToBsonArray(sequence),
        _ => throw new NotSupportedException($"A query value of type {value.GetType().Name} has no BSON equivalent; compare fields with scalar values."),
    };

    public static BsonValue ToBsonArray(object? value)
    {
        if (value is not IEnumerable sequence || value is string)
        {
            throw new NotSupportedException($"Contains needs a collection of values, not {value?.GetType().Name ?? "null"}.");
        }

        var array = new BsonArray();
        foreach (var item in sequence)
        {
            array.Add(ToBsonValue(item));
        }

        return array;
    }

    private static BsonValue FromEnum(Enum value) => Type.GetTypeCode(Enum.GetUnderlyingType(value.GetType())) switch
    {
        TypeCode.Int64 => Convert.ToInt64(value, System.Globalization.CultureInfo.InvariantCulture),
        TypeCode.UInt32 => Convert.ToUInt32(value, System.Globalization.CultureInfo.InvariantCulture),
        TypeCode.UInt64 => Convert.ToUInt64(value, System.Globalization.CultureInfo.InvariantCulture),
        _ => Convert.ToInt32(value, System.Globalization.CultureInfo.InvariantCulture),
    };
}
