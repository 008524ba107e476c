using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Query;

/// <summary>
/// Turns the field key of a single-path index back into the member value it was written from, for
/// the member types whose key keeps the value exactly: strings, booleans, integers and enums,
/// ObjectIds, Guids and their nullables. Other types are left out because their keys are
/// normalised (decimal trailing zeros, -0.0, a DateTime's kind) or shared between types.
/// </summary>
internal static class IndexKeyValues
{
    public static bool Supports(Type type)
    {
        var underlying = Nullable.GetUnderlyingType(type) ?? type;
        if (underlying.IsEnum)
        {
            underlying = Enum.GetUnderlyingType(underlying);
        }

        return underlying == typeof(string) || underlying == typeof(bool) || underlying == typeof(int) || underlying == typeof(long)
            || underlying == typeof(short) || underlying == typeof(byte) || underlying == typeof(ObjectId) || underlying == typeof(Guid);
    }

    /// <summary>The value of a one-component key as <paramref name="type"/>; false when the key holds another type, a number out of its range, or null for a non-nullable value type.</summary>
    public static bool TryRead(ReadOnlySpan<byte> fieldKey, Type type, out object? value)
    {
        value = null;
        var nullableOf = Nullable.GetUnderlyingType(type);
        var target = nullableOf ?? type;
        var reader = new KeyReader(fieldKey);
        if (reader.End)
        {
            return false;
        }

        var tag = reader.PeekType();
        if (tag == KeyType.Null)
        {
            reader.ReadNull();
            return reader.End && (!type.IsValueType || nullableOf is not null);
        }

        var integral = target.IsEnum ? Enum.GetUnderlyingType(target) : target;
        switch (tag)
        {
            case KeyType.String when target == typeof(string):
                value = reader.ReadString();
                break;
            case KeyType.Boolean when target == typeof(bool):
                value = reader.ReadBoolean();
                break;
            case KeyType.ObjectId when target == typeof(ObjectId):
                value = reader.ReadObjectId();
                break;
            case KeyType.Guid when target == typeof(Guid):
                value = reader.ReadGuid();
                break;
            case KeyType.Number when integral == typeof(int) || integral == typeof(long) || integral == typeof(short) || integral == typeof(byte):
                var number = reader.ReadNumber();
                if (number.Type != BsonType.Int64 || !TryNarrow(number.AsInt64, integral, out var narrowed))
                {
                    return false;
                }

                value = target.IsEnum ? Enum.ToObject(target, narrowed) : narrowed;
                break;
            default:
                return false;
        }

        return reader.End;
    }

    private static bool TryNarrow(long number, Type integral, out object value)
    {
        value = number;
        if (integral == typeof(long))
        {
            return true;
        }

        if (integral == typeof(int) && number is >= int.MinValue and <= int.MaxValue)
        {
            value = (int)number;
            return true;
        }

        if (integral == typeof(short) && number is >= short.MinValue and <= short.MaxValue)
        {
            value = (short)number;
            return true;
        }

        if (integral == typeof(byte) && number is >= byte.MinValue and <= byte.MaxValue)
        {
            value = (byte)number;
            return true;
        }

        return false;
    }
}
