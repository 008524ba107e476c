namespace BLite;

/// <summary>How far a commit must travel before <c>Commit</c> returns.</summary>
public enum Durability
{
    /// <summary>
    /// The commit's WAL frames are on stable storage (flushed to disk) before Commit returns.
    /// Neither a process kill nor a power loss loses an acknowledged commit. Concurrent
    /// committers share one flush (group commit).
    /// </summary>
    Full = 0,

    /// <summary>
    /// The commit is handed to the operating system before Commit returns and flushed to disk at
    /// the next checkpoint. Survives a process kill; a power loss may lose the last commits but
    /// never corrupts the database or exposes half of a commit.
    /// </summary>
    Normal = 1,

    /// <summary>Nothing touches a disk: the database lives and dies with the engine.</summary>
    InMemory = 2,
}
