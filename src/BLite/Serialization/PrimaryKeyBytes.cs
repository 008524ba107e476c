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

    // Each encoder writes straight into the key it returns (no delegate to call, no writer to
    // copy): a lookup by id pays for this on every call.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static PrimaryKeyBytes Of(ObjectId id)
    {
        var key = default(PrimaryKeyBytes);
        var writer = new KeyWriter(key._inline);
        writer.WriteObjectId(id);
        key._length = writer.BytesWritten;
        return key;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static PrimaryKeyBytes Of(Guid id)
    {
        var key = default(PrimaryKeyBytes);
        var writer = new KeyWriter(key._inline);
        writer.WriteGuid(id);
        key._length = writer.BytesWritten;
        return key;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static PrimaryKeyBytes Of(long id)
    {
        var key = default(PrimaryKeyBytes);
        var writer = new KeyWriter(key._inline);
        writer.WriteInt64(id);
        key._length = writer.BytesWritten;
        return key;
    }

    /// <summary>Only for strings of at most <see cref="MaxInlineStringLength"/> characters.</summary>
    public static PrimaryKeyBytes OfShortString(string id)
    {
        var key = default(PrimaryKeyBytes);
        var writer = new KeyWriter(key._inline);
        writer.WriteString(id);
        key._length = writer.BytesWritten;
        return key;
    }

    [InlineArray(InlineCapacity)]
    private struct InlineBytes
    {
        private byte _first;
    }
}
