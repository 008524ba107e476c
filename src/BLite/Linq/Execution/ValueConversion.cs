namespace BLite.Linq.Execution;

/// <summary>
/// C# cast semantics on boxed values (truncation, not rounding; checked casts throw on
/// overflow), for Convert nodes: numeric widening and narrowing, enums to and from their
/// underlying type, nullable wrapping, boxing and reference casts.
/// </summary>
internal static class ValueConversion
{
    public static object? Convert(object? value, Type target, bool isChecked)
    {
        var underlying = Nullable.GetUnderlyingType(target);
        if (value is null)
        {
            if (target.IsValueType && underlying is null)
            {
                throw new InvalidOperationException($"Nullable object must have a value (converting null to {target.Name}).");
            }

            return null;
        }

        target = underlying ?? target;
        if (target.IsInstanceOfType(value))
        {
            return value;
        }

        if (target.IsEnum)
        {
            return Enum.ToObject(target, ToNumeric(value, Enum.GetUnderlyingType(target), isChecked));
        }

        if (value is Enum)
        {
            value = System.Convert.ChangeType(value, Enum.GetUnderlyingType(value.GetType()), System.Globalization.CultureInfo.InvariantCulture);
        }

        if (value is IConvertible && IsNumeric(target) && IsNumeric(value.GetType()))
        {
            return ToNumeric(value, target, isChecked);
        }

        throw new InvalidCastException($"Cannot convert a value of type {value.GetType().Name} to {target.Name}.");
    }

    private static bool IsNumeric(Type type) => Type.GetTypeCode(type) is >= TypeCode.Char and <= TypeCode.Decimal;

    private static object ToNumeric(object value, Type target, bool isChecked)
    {
        switch (value)
        {
            case double d:
                return FromDouble(d, Type.GetTypeCode(target), isChecked);
            case float f:
                return FromDouble(f, Type.GetTypeCode(target), isChecked);
            case decimal m:
                return FromDecimal(m, Type.GetTypeCode(target));
            case ulong u:
                return FromUInt64(u, Type.GetTypeCode(target), isChecked);
            default:
                return FromInt64(System.Convert.ToInt64(value, System.Globalization.CultureInfo.InvariantCulture), Type.GetTypeCode(target), isChecked);
        }
    }

    private static object FromInt64(long v, TypeCode target, bool isChecked) => isChecked
        ? target switch
        {
            TypeCode.SByte => checked((sbyte)v), TypeCode.Byte => checked((byte)v), TypeCode.Int16 => checked((short)v),
            TypeCode.UInt16 => checked((ushort)v), TypeCode.Char => checked((char)v), TypeCode.Int32 => checked((int)v),
            TypeCode.UInt32 => checked((uint)v), TypeCode.Int64 => v, TypeCode.UInt64 => checked((ulong)v),
            TypeCode.Single => (float)v, TypeCode.Double => (double)v, _ => (decimal)v,
        }
        : target switch
        {
            TypeCode.SByte => unchecked((sbyte)v), TypeCode.Byte => unchecked((byte)v), TypeCode.Int16 => unchecked((short)v),
            TypeCode.UInt16 => unchecked((ushort)v), TypeCode.Char => unchecked((char)v), TypeCode.Int32 => unchecked((int)v),
            TypeCode.UInt32 => unchecked((uint)v), TypeCode.Int64 => v, TypeCode.UInt64 => unchecked((ulong)v),
            TypeCode.Single => (float)v, TypeCode.Double => (double)v, _ => (decimal)v,
        };

    private static object FromUInt64(ulong v, TypeCode target, bool isChecked) => target switch
    {
        TypeCode.UInt64 => v,
        TypeCode.Single => (float)v,
        TypeCode.Double => (double)v,
        TypeCode.Decimal => (decimal)v,
        _ => FromInt64(isChecked ? checked((long)v) : unchecked((long)v), target, isChecked),
    };

    private static object FromDouble(double v, TypeCode target, bool isChecked) => isChecked
        ? target switch
        {
            TypeCode.SByte => checked((sbyte)v), TypeCode.Byte => checked((byte)v), TypeCode.Int16 => checked((short)v),
            TypeCode.UInt16 => checked((ushort)v), TypeCode.Char => checked((char)v), TypeCode.Int32 => checked((int)v),
            TypeCode.UInt32 => checked((uint)v), TypeCode.Int64 => checked((long)v), TypeCode.UInt64 => checked((ulong)v),
            TypeCode.Single => (float)v, TypeCode.Double => v, _ => (decimal)v,
        }
        : target switch
        {
            TypeCode.SByte => unchecked((sbyte)v), TypeCode.Byte => unchecked((byte)v), TypeCode.Int16 => unchecked((short)v),
            TypeCode.UInt16 => unchecked((ushort)v), TypeCode.Char => unchecked((char)v), TypeCode.Int32 => unchecked((int)v),
            TypeCode.UInt32 => unchecked((uint)v), TypeCode.Int64 => unchecked((long)v), TypeCode.UInt64 => unchecked((ulong)v),
            TypeCode.Single => (float)v, TypeCode.Double => v, _ => (decimal)v,
        };

    private static object FromDecimal(decimal v, TypeCode target) => target switch
    {
        TypeCode.SByte => (sbyte)v, TypeCode.Byte => (byte)v, TypeCode.Int16 => (short)v, TypeCode.UInt16 => (ushort)v,
        TypeCode.Char => (char)v, TypeCode.Int32 => (int)v, TypeCode.UInt32 => (uint)v, TypeCode.Int64 => (long)v,
        TypeCode.UInt64 => (ulong)v, TypeCode.Single => (float)v, TypeCode.Double => (double)v, _ => v,
    };
}
