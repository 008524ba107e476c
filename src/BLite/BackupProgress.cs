namespace BLite;

/// <summary>How far a backup is: documents copied out of the documents in its snapshot.</summary>
public readonly record struct BackupProgress(long DocumentsCopied, long TotalDocuments);
