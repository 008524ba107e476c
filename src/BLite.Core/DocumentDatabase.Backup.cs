using BLite.Core.Storage;
using BLite.Core.Storage.Devices;

namespace BLite.Core;

internal sealed partial class DocumentDatabase
{
    /// <summary>Suffix of the file a backup is written under until it is complete and verified.</summary>
    internal const string PartialBackupSuffix = ".partial-backup";

    /// <summary>
    /// Writes a consistent copy of this database as of one commit (the snapshot taken on entry)
    /// to the new file <paramref name="destination"/>, with the change journal and feed settings,
    /// while writers go on: the copy reads a snapshot, which never blocks the writer. The copy of
    /// an encrypted database is encrypted under the same key (a password gets a fresh salt), so a
    /// backup never holds the data in plaintext. The copy is
    /// written under a temporary name, checkpointed and flushed, reopened and verified, and only
    /// then renamed to <paramref name="destination"/>; a backup that fails or is killed halfway
    /// leaves nothing under the destination name (a failed one removes its partial file too).
    /// </summary>
    /// <param name="progress">Called with (documents copied, documents in the snapshot).</param>
    /// <param name="openCopy">Opens the engine of the copy at the given path (tests put it on a failing device).</param>
    /// <returns>The number of documents copied.</returns>
    internal long BackupTo(string destination, Action<long, long>? progress, CancellationToken cancellationToken, Func<string, StorageOptions, StorageEngine>? openCopy = null)
    {
        ThrowIfDisposed();
        var target = System.IO.Path.GetFullPath(destination);
        if (File.Exists(target) || File.Exists(StorageEngine.WalPathFor(target)))
        {
            throw new BLiteException($"Backup destination '{target}' already exists; BLite never overwrites a database with a backup. Choose a new path or delete the old file first.");
        }

        var partial = target + PartialBackupSuffix;
        var partialWal = StorageEngine.WalPathFor(partial);

        // A leftover of a backup killed halfway to this destination: never complete, never renamed.
        File.Delete(partial);
        File.Delete(partialWal);
        try
        {
            long copied;
            using (var snapshot = BeginRead())
            {
                long total = 0;
                foreach (var name in GetCollectionNames(snapshot))
                {
                    total += GetRawCollection(name).Count(snapshot);
                }

                progress?.Invoke(0, total);
                var options = new StorageOptions { Durability = Durability.Full, PageSize = Storage.PageSize, ChangeFeedRetention = Storage.Options.ChangeFeedRetention, Encryption = Storage.Options.Encryption };
                using var copy = Open(openCopy is null ? StorageEngine.Open(partial, options) : openCopy(partial, options));
                copied = CopyTo(snapshot, copy, done =>
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    progress?.Invoke(done, total);
                }).Values.Sum();
                copy.Storage.Checkpoint();
            }

            VerifyBackup(partial, Storage.Options.Encryption);

            // Closed cleanly, the copy's log holds no commit the file lacks.
            File.Delete(partialWal);
            File.Move(partial, target, overwrite: false);
            FileDevice.FlushDirectoryOf(target);
            return copied;
        }
        catch
        {
            File.Delete(partial);
            File.Delete(partialWal);
            throw;
        }
    }

    private static void VerifyBackup(string path, BLiteEncryption? encryption)
    {
        using var check = Open(path, new StorageOptions { ReadOnly = true, Encryption = encryption });
        var report = check.Verify();
        if (!report.IsValid)
        {
            throw new BLiteException($"The backup written to '{path}' failed verification ({report.Issues[0]}); it was removed and the source is unchanged.");
        }
    }
}
