namespace BLite.Core.CrashWorker;

/// <summary>The key of the encrypted crash databases: the worker writes with it and the test process checks with it.</summary>
internal static class CrashEncryption
{
    public static readonly byte[] Key = [.. Enumerable.Range(7, BLiteEncryption.KeySize).Select(i => (byte)i)];
}
