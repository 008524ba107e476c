namespace BLite.Bson;

/// <summary>
/// Reads of the .NET types that travel widened (docs/format.md 1.6): a value outside the target
/// range is a format error, never a silent wrap.
/// </summary>
public ref partial struct BsonSpanReader
{
    /// <summary>Reads an Int32 value into a short.</summary>
    public short ReadInt16()
    {
        var start = _position;
        var value = ReadInt32();
        return value is >= short.MinValue and <= short.MaxValue ? (short)value : throw DoesNotFit(value, "Int16", start);
    }

    public ushort ReadUInt16()
    {
        var start = _position;
        var value = ReadInt32();
        return value is >= ushort.MinValue and <= ushort.MaxValue ? (ushort)value : throw DoesNotFit(value, "UInt16", start);
    }

    public byte ReadByte()
    {
        var start = _position;
        var value = ReadInt32();
        return value is >= byte.MinValue and <= byte.MaxValue ? (byte)value : throw DoesNotFit(value, "Byte", start);
    }

    public sbyte ReadSByte()
    {
        var start = _position;
        var value = ReadInt32();
        return value is >= sbyte.MinValue and <= sbyte.MaxValue ? (sbyte)value : throw DoesNotFit(value, "SByte", start);
    }

    public char ReadChar()
    {
        var start = _position;
        var value = ReadInt32();
        return value is >= char.MinValue and <= char.MaxValue ? (char)value : throw DoesNotFit(value, "Char", start);
    }

    /// <summary>Reads an Int64 value into a uint.</summary>
    public uint ReadUInt32()
    {
        var start = _position;
        var value = ReadInt64();
        return value is >= uint.MinValue and <= uint.MaxValue ? (uint)value : throw DoesNotFit(value, "UInt32", start);
    }

    /// <summary>
    /// Reads a Double into a float: exact for values written from a float, rounded to nearest
    /// otherwise; a finite value beyond the float range is an error.
    /// </summary>
    public float ReadSingle()
    {
        var start = _position;
        var value = ReadDouble();
        var narrowed = (float)value;
        return float.IsInfinity(narrowed) && double.IsFinite(value) ? throw DoesNotFit(value, "Single", start) : narrowed;
    }

    private static BsonFormatException DoesNotFit<T>(T value, string target, int offset) =>
        new($"Value {value} does not fit {target}", offset);
}
