using BLite.Bson;

namespace BLite.Linq.Execution;

/// <summary>
/// Turns a stored value read by a pushed-down projection into the CLR type of the member it came
/// from, following the mapping the generated serializers use in reverse (see
/// <see cref="ClrBsonConverter"/>): integers narrow to the member's width, enums come from their
/// underlying integer, Guids from a UUID binary.
/// </summary>
internal static class BsonClrConverter
{
    /// <summary>The member types a projection can read from raw bytes; anything else materializes the document.</summary>
    public static bool CanRead(Type type)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        return type.IsEnum || type == typeof(string) || type == typeof(decimal) || type == typeof(DateTime) || type == typeof(DateTimeOffset)
            || type == typeof(TimeSpan) || type == typeof(DateOnly) || type == typeof(TimeOnly) || type == typeof(Guid) || type == typeof(ObjectId)
            || (type.IsPrimitive && type != typeof(IntPtr) && type != typeof(UIntPtr));
    }

    public static object? ToClr(BsonValue value, Type target, string path)
    {
        if (value.IsNull)
        {
            if (target.IsValueType && Nullable.GetUnderlyingType(target) is null)
            {
                throw new InvalidOperationException($"The stored field '{path}' is null or missing, so it cannot be read as {target.Name}.");
            }

            return null;
        }

        var underlying = Nullable.GetUnderlyingType(target) ?? target;
        object boxed = value.Type switch
        {
            BsonType.String => value.AsString,
            BsonType.Int32 => value.AsInt32,
            BsonType.Int64 => value.AsInt64,
            BsonType.UInt64 => value.AsUInt64,
            BsonType.Double => value.AsDouble,
            BsonType.Decimal128 => value.AsDecimal,
            BsonType.Boolean => value.AsBoolean,
            BsonType.DateTime => value.AsDateTime,
            BsonType.DateTimeOffset => value.AsDateTimeOffset,
            BsonType.TimeSpan => value.AsTimeSpan,
            BsonType.DateOnly => value.AsDateOnly,
            BsonType.TimeOnly => value.AsTimeOnly,
            BsonType.ObjectId => value.AsObjectId,
            BsonType.Binary when underlying == typeof(Guid) => value.AsGuid,
            _ => throw new InvalidOperationException($"The stored field '{path}' holds a {value.Type}, which cannot be read as {target.Name}."),
        };
        return ValueConversion.Convert(boxed, target, isChecked: false);
    }
}
