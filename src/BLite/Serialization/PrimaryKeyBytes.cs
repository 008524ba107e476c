using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Serialization;

/// <summary>
/// An encoded primary key held by value, so a lookup by id needs no heap buffer and can travel
/// in a read's state tuple. ObjectId, Guid, int and long keys and string keys of up to
/// <see cref="MaxInlineStringLength"/> characters are encoded inline; a longer key is carried in
/// an array. The bytes are those of <see cref="BLite.Core.Collections.IndexKeys.EncodeId"/>.
/// </summary>
internal struct PrimaryKeyBytes
{
    public const int InlineCapacity = 64;

    /// <summary>A UTF-16 char is at most 3 UTF-8 bytes (a NUL becomes 2 escaped); tag and terminator take 3 more.</summary>
    public const int MaxInlineStringLength = (InlineCapacity - 3) / 3;

    private InlineBytes _inline;
    private byte[]? _array;
    private int _length;

    [UnscopedRef]
    public readonly ReadOnlySpan<byte> Span => _array ?? ((ReadOnlySpan<byte>)_inline)[.._length];

    public static PrimaryKeyBytes FromArray(byte[] encoded) => new() { _array = encoded, _length = encoded.Length };

    public static PrimaryKeyBytes Of(ObjectId id) => Encode(id, static (ref KeyWriter writer, ObjectId value) => writer.WriteObjectId(value));

    public static PrimaryKeyBytes Of(Guid id) => Encode(id, static (ref KeyWriter writer, Guid value) => writer.WriteGuid(value));

    public static PrimaryKeyBytes Of(long id) => Encode(id, static (ref KeyWriter writer, long value) => writer.WriteInt64(value));

    /// <summary>Only for strings of at most <see cref="MaxInlineStringLength"/> characters.</summary>
    public static PrimaryKeyBytes OfShortString(string id) => Encode(id, static (ref KeyWriter writer, string value) => writer.WriteString(value));

    private static PrimaryKeyBytes Encode<TId>(TId id, WriteKey<TId> write)
    {
        var key = default(PrimaryKeyBytes);
        var writer = new KeyWriter(key._inline);
        write(ref writer, id);
        key._length = writer.BytesWritten;
        return key;
    }

    private delegate void WriteKey<TId>(ref KeyWriter writer, TId id);

    [InlineArray(InlineCapacity)]
    private struct InlineBytes
    {
        private byte _first;
    }
}
