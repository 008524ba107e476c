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

    public static PrimaryKeyBytes Of(ObjectId id) => Encode<ObjectId, ObjectIdKey>(id);

    public static PrimaryKeyBytes Of(Guid id) => Encode<Guid, GuidKey>(id);

    public static PrimaryKeyBytes Of(long id) => Encode<long, Int64Key>(id);

    /// <summary>Only for strings of at most <see cref="MaxInlineStringLength"/> characters.</summary>
    public static PrimaryKeyBytes OfShortString(string id) => Encode<string, StringKey>(id);

    // The encoder is a struct type argument, not a delegate: each instantiation is compiled on its
    // own with the write inlined, and the key is written straight into the value returned.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static PrimaryKeyBytes Encode<TId, TEncoder>(TId id)
        where TEncoder : struct, IKeyEncoder<TId>
    {
        var key = default(PrimaryKeyBytes);
        var writer = new KeyWriter(key._inline);
        TEncoder.Write(ref writer, id);
        key._length = writer.BytesWritten;
        return key;
    }

    private interface IKeyEncoder<TId>
    {
        static abstract void Write(ref KeyWriter writer, TId id);
    }

    private struct ObjectIdKey : IKeyEncoder<ObjectId>
    {
        public static void Write(ref KeyWriter writer, ObjectId id) => writer.WriteObjectId(id);
    }

    private struct GuidKey : IKeyEncoder<Guid>
    {
        public static void Write(ref KeyWriter writer, Guid id) => writer.WriteGuid(id);
    }

    private struct Int64Key : IKeyEncoder<long>
    {
        public static void Write(ref KeyWriter writer, long id) => writer.WriteInt64(id);
    }

    private struct StringKey : IKeyEncoder<string>
    {
        public static void Write(ref KeyWriter writer, string id) => writer.WriteString(id);
    }

    [InlineArray(InlineCapacity)]
    private struct InlineBytes
    {
        private byte _first;
    }
}
