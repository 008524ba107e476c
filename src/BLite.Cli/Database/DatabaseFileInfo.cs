namespace BLite.Cli.Database;

/// <summary>A database file's header as stored on disk (page count and free pages as of the last checkpoint).</summary>
/// <param name="Encryption">How an encrypted database is keyed (read from its clear header), or null for a plain one; page counts of an encrypted database are not known without the key.</param>
internal sealed record DatabaseFileInfo(string Path, long FileLength, uint FormatVersion, int PageSize, uint PageCount, uint FreePageCount, ulong DatabaseId, WalFileInfo Wal, string? Encryption = null);

/// <param name="TrailingFrames">Frames after the last commit marker: an unfinished transaction the next open discards.</param>
internal sealed record WalFileInfo(string Path, bool Exists, long Length, bool HeaderValid, bool BelongsToDatabase, long Frames, long Commits, long TrailingFrames)
{
    private const int WalHeaderSize = 40;

    public string Describe()
    {
        if (!Exists)
        {
            return "absent (created when the database is next opened)";
        }

        if (!HeaderValid && Length <= WalHeaderSize)
        {
            return "no valid header and no frames (rewritten when the database is next opened)";
        }

        if (!HeaderValid)
        {
            return "damaged header in front of frames that may hold commits: the next open recovers them exactly when they verify and refuses to open otherwise ('blite check' says which)";
        }

        if (!BelongsToDatabase)
        {
            return "belongs to another database (different id or page size); the engine will refuse to apply it";
        }

        if (Frames == 0)
        {
            return "empty: every commit is in the database file";
        }

        var text = $"{Commits} committed transaction(s) in {Frames - TrailingFrames} frame(s) not yet checkpointed; the next open applies them";
        return TrailingFrames > 0 ? text + $", and discards {TrailingFrames} frame(s) of an unfinished transaction" : text;
    }
}
