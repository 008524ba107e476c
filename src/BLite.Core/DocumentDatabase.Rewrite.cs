using BLite.Core.Storage;
using BLite.Core.Storage.Devices;

namespace BLite.Core;

/// <summary>What a rewrite does around its copy, for callers that report on it and tests that inject faults.</summary>
internal sealed class RewriteSteps
{
    /// <summary>Called once with the documents to copy, then with the running total after each copied document.</summary>
    public Action<long, long>? Progress { get; init; }

    /// <summary>Runs after the copy is verified, just before it is renamed over the database (tests make it fail).</summary>
    public Action? BeforeReplace { get; init; }

    /// <summary>Flushes the folder after the rename (tests make it fail).</summary>
    public Action<string> FlushDirectory { get; init; } = FileDevice.FlushDirectoryOf;
}

internal sealed partial class DocumentDatabase
{
    /// <summary>
    /// Replaces the closed database at <paramref name="path"/> by a logical copy of itself:
    /// compaction, format upgrade, and encrypting, re-keying or decrypting (an encrypted page has
    /// less payload room than a plain one, so those rewrite every page). Every collection, index
    /// definition, document and the change journal are copied into PATH.<paramref name="suffix"/>
    /// under <paramref name="copyEncryption"/> (null for a plain copy); the copy is checkpointed,
    /// reopened, checked (consistency check and per-collection counts) and flushed, and only then
    /// renamed over the database in one step, after which the folder is flushed. Until the rename
    /// the database is untouched and a failure removes the copy. A failure after it (the folder
    /// flush) is reported as a completed rewrite: the file under the name is the new one.
    /// </summary>
    /// <param name="openSource">Opens the database for writing (so it is locked and its log recovered); it is closed before the rename.</param>
    /// <param name="operation">Names the operation in messages ("compaction", "rekey").</param>
    /// <param name="onReplaced">Called right after the rename, before the folder flush that may still fail.</param>
    internal static void Rewrite(string path, string suffix, string operation, Func<DocumentDatabase> openSource, BLiteEncryption? copyEncryption, RewriteSteps? steps = null, Action? onReplaced = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        steps ??= new RewriteSteps();
        var copyPath = path + "." + suffix;
        var copyWalPath = StorageEngine.WalPathFor(copyPath);
        if (File.Exists(copyPath) || File.Exists(copyWalPath))
        {
            throw new BLiteException($"'{copyPath}' exists, perhaps left by an interrupted {operation}; remove it and try again. The database was not changed.");
        }

        try
        {
            using (var source = openSource())
            {
                source.WriteVerifiedCopy(copyPath, operation, copyEncryption, steps.Progress);
            }

            steps.BeforeReplace?.Invoke();

            // The original is closed (and so checkpointed: its log holds nothing the file lacks).
            // Remove the copy's and the original's logs first, so no log of another database is
            // ever left beside the new file; then one rename swaps the files.
            File.Delete(copyWalPath);
            File.Delete(StorageEngine.WalPathFor(path));
            File.Move(copyPath, path, overwrite: true);
        }
        catch
        {
            DeleteQuietly(copyPath);
            DeleteQuietly(copyWalPath);
            throw;
        }

        onReplaced?.Invoke();
        try
        {
            steps.FlushDirectory(path);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new BLiteException($"The {operation} of database '{path}' completed: the file under its name is the new one. Flushing its folder afterwards failed ({exception.Message}), so a power cut before the system writes the folder out could bring back the previous file: keep the previous key until the database has been reopened after a clean shutdown.", exception);
        }
    }

    private void WriteVerifiedCopy(string copyPath, string operation, BLiteEncryption? encryption, Action<long, long>? progress)
    {
        using var snapshot = BeginRead();
        long total = 0;
        foreach (var name in GetCollectionNames(snapshot))
        {
            total += GetRawCollection(name).Count(snapshot);
        }

        progress?.Invoke(0, total);
        Dictionary<string, long> copied;
        var options = new StorageOptions { PageSize = Storage.PageSize, Durability = Durability.Normal, ChangeFeedRetention = Storage.Options.ChangeFeedRetention, Encryption = encryption };
        using (var target = Open(copyPath, options))
        {
            copied = CopyTo(snapshot, target, done => progress?.Invoke(done, total));
            target.Checkpoint();
        }

        using (var check = Open(copyPath, options))
        {
            var report = check.Verify();
            if (!report.IsValid)
            {
                throw new BLiteException($"The {operation} of database '{Storage.Path}' failed: the new copy failed verification ({report.Issues[0]}); the database is unchanged.");
            }

            using var read = check.BeginRead();
            foreach (var (name, count) in copied)
            {
                var stored = check.GetRawCollection(name).Count(read);
                if (stored != count || count != GetRawCollection(name).Count(snapshot))
                {
                    throw new BLiteException($"The {operation} of database '{Storage.Path}' failed: the new copy of '{name}' holds {stored} document(s) instead of {count}; the database is unchanged.");
                }
            }
        }

        // Closing checkpointed the copy; make sure its bytes are on disk before it can replace the original.
        using var file = new FileStream(copyPath, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
        file.Flush(flushToDisk: true);
    }

    private static void DeleteQuietly(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
            // The original error is the one to report; a leftover copy is named by the next run.
        }
    }
}
