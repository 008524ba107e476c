using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

/// <summary>Small helpers that build encoded keys for tests.</summary>
internal static class TestKeys
{
    public delegate void Write(ref KeyWriter writer);

    public static byte[] Encode(Write write)
    {
        Span<byte> buffer = stackalloc byte[4096];
        var writer = new KeyWriter(buffer);
        write(ref writer);
        return writer.WrittenSpan.ToArray();
    }

    public static byte[] Int(long value) => Encode((ref KeyWriter w) => w.WriteInt64(value));

    public static byte[] Str(string value) => Encode((ref KeyWriter w) => w.WriteString(value));

    public static byte[] StrPrefix(string value) => Encode((ref KeyWriter w) => w.WriteStringPrefix(value));

    public static byte[] Value(int length, int seed)
    {
        var value = new byte[length];
        new Random(seed).NextBytes(value);
        return value;
    }

    public static int Compare(byte[] a, byte[] b) => Math.Sign(a.AsSpan().SequenceCompareTo(b));

    public sealed class ByteComparer : IComparer<byte[]>
    {
        public static ByteComparer Instance { get; } = new();

        public int Compare(byte[]? x, byte[]? y) => x.AsSpan().SequenceCompareTo(y);
    }
}
