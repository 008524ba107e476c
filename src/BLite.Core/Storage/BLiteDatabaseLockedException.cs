namespace BLite;

/// <summary>The database is already open for writing, by another process or another engine in this one.</summary>
public sealed class BLiteDatabaseLockedException : BLiteException
{
    public BLiteDatabaseLockedException(string filePath, Exception innerException)
        : base($"Database '{filePath}' is already open by another process or another StorageEngine; BLite allows one writer per file.", innerException)
    {
        FilePath = filePath;
    }

    public string FilePath { get; }
}
