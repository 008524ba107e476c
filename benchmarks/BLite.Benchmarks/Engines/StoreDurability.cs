namespace BLite.Benchmarks.Engines;

/// <summary>
/// What an acknowledged commit survives, matched across engines (DESIGN.md section 5):
/// BLite Full / SQLite WAL + synchronous=FULL; BLite Normal / SQLite WAL + synchronous=NORMAL /
/// LiteDB on a file (as shipped); BLite InMemory / SQLite :memory: / LiteDB on a MemoryStream.
/// </summary>
public enum StoreDurability
{
    /// <summary>Every commit is on stable storage before it returns (survives power loss).</summary>
    FlushPerCommit,

    /// <summary>Commits reach the OS before returning; synced at checkpoint (survives a process crash).</summary>
    OsBuffered,

    /// <summary>Nothing reaches a file.</summary>
    InMemory,

    /// <summary>
    /// Commits are acknowledged by a database server (PostgreSQL), durable as the server is
    /// configured; only engines on the same server are compared at this level.
    /// </summary>
    Server,
}

public static class StoreDurabilityLabels
{
    /// <summary>The short label used in tables and in the manual mode's JSON.</summary>
    public static string Label(this StoreDurability durability) => durability switch
    {
        StoreDurability.FlushPerCommit => "flush",
        StoreDurability.OsBuffered => "buffered",
        StoreDurability.InMemory => "memory",
        StoreDurability.Server => "server",
        _ => throw new ArgumentOutOfRangeException(nameof(durability), durability, "Unknown durability level."),
    };
}
