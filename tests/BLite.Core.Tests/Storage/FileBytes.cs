namespace BLite.Core.Tests.Storage;

/// <summary>Damage done to a database or WAL file on disk, as a failing disk or a stray write would.</summary>
internal static class FileBytes
{
    /// <summary>Changes one byte in place (XOR 0x5A, so a second flip restores it).</summary>
    public static void Flip(string path, long offset)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        stream.Position = offset;
        var value = stream.ReadByte();
        stream.Position = offset;
        stream.WriteByte((byte)(value ^ 0x5A));
    }

    /// <summary>Exchanges two ranges of <paramref name="length"/> bytes, as a stray copy would.</summary>
    public static void Swap(string path, long first, long second, int length)
    {
        var a = Read(path, first, length);
        var b = Read(path, second, length);
        Write(path, first, b);
        Write(path, second, a);
    }

    public static byte[] Read(string path, long offset, int length)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read);
        stream.Position = offset;
        var bytes = new byte[length];
        stream.ReadExactly(bytes);
        return bytes;
    }

    public static void Write(string path, long offset, byte[] bytes)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Write);
        stream.Position = offset;
        stream.Write(bytes);
    }
}
