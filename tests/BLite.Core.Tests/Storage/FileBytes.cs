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
}
