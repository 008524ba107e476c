using System.Buffers.Binary;

namespace BLite.Core.Collections.Indexes;

/// <summary>
/// A secondary-index entry: key = field key ++ primary key, value = u16 little-endian length of
/// the field key. Appending the primary key makes every entry unique even in a non-unique
/// index, keeps equal field values in id order, and never refers to a physical location, so
/// documents can move without touching their index entries. The stored length lets a scan split
/// key from primary key without decoding the components.
/// </summary>
internal static class SecondaryEntry
{
    public const int ValueSize = 2;

    public static byte[] ComposeKey(ReadOnlySpan<byte> fieldKey, ReadOnlySpan<byte> primaryKey)
    {
        var key = new byte[fieldKey.Length + primaryKey.Length];
        fieldKey.CopyTo(key);
        primaryKey.CopyTo(key.AsSpan(fieldKey.Length));
        return key;
    }

    public static void WriteValue(Span<byte> value, int fieldKeyLength) =>
        BinaryPrimitives.WriteUInt16LittleEndian(value, checked((ushort)fieldKeyLength));

    public static int ReadFieldKeyLength(ReadOnlySpan<byte> value) =>
        BinaryPrimitives.ReadUInt16LittleEndian(value);

    public static ReadOnlySpan<byte> PrimaryKeyOf(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        key[ReadFieldKeyLength(value)..];

    public static ReadOnlySpan<byte> FieldKeyOf(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        key[..ReadFieldKeyLength(value)];
}
