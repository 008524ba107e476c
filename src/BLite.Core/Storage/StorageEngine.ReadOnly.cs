using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    /// <summary>
    /// Refuses, before anything is created or locked, the paths an open could only turn into a raw
    /// I/O error or, worse, a new database that hides the old one.
    /// </summary>
    private static void CheckPaths(string fullPath, bool readOnly)
    {
        if (Directory.Exists(fullPath))
        {
            throw new BLiteException($"Cannot open database '{fullPath}': it is a directory, not a database file.");
        }

        var folder = System.IO.Path.GetDirectoryName(fullPath);
        if (!string.IsNullOrEmpty(folder) && !Directory.Exists(folder))
        {
            throw new BLiteException($"Cannot open database '{fullPath}': the folder '{folder}' does not exist.");
        }

        if (File.Exists(fullPath))
        {
            return;
        }

        var walPath = WalPathFor(fullPath);
        if (File.Exists(walPath) && new FileInfo(walPath).Length > 0)
        {
            // Creating a database here would restart that log and destroy what it holds.
            throw new BLiteException($"Cannot open database '{fullPath}': the file is missing but its write-ahead log '{walPath}' is there, the WAL of a database whose main file is missing. Restore the database file (or remove the log to start a new database); nothing was changed.");
        }

        if (readOnly)
        {
            throw new BLiteException($"Cannot open database '{fullPath}' read-only: the file does not exist, and a read-only open does not create it.");
        }
    }

    private static BLiteException CannotOpen(string path, Exception exception) => exception switch
    {
        UnauthorizedAccessException => new BLiteException($"Cannot open database '{path}': access denied ({exception.Message}).", exception),
        _ => new BLiteException($"Cannot open database '{path}': {exception.Message}", exception),
    };

    /// <summary>The file and its log opened for reading only, without locks (see <see cref="StorageOptions.ReadOnly"/>).</summary>
    private static StorageEngine OpenReadOnly(string fullPath, StorageOptions options)
    {
        IStorageDevice file = OpenForReading(fullPath);
        IStorageDevice? wal = null;
        try
        {
            file = AttachEncryption(file, fullPath, options, mayCreate: false);
            var walPath = WalPathFor(fullPath);
            var logFileMissing = !File.Exists(walPath);
            wal = logFileMissing ? new MemoryDevice(walPath) : OpenForReading(walPath);
            return OpenCore(fullPath, file, WrapLog(file, wal), options, logFileMissing);
        }
        catch (BLiteCorruptionException) when (file is Encryption.EncryptedFileDevice encrypted && encrypted.ChangedOnDisk())
        {
            // The log was sealed for a checkpoint committed after this view read the version record.
            wal?.Dispose();
            file.Dispose();
            throw new SharedSnapshotChangedException($"Database '{fullPath}' was checkpointed by a writer while this read-only view was opening it; open it again to read the new state.");
        }
        catch
        {
            wal?.Dispose();
            file.Dispose();
            throw;
        }
    }

    private static FileDevice OpenForReading(string path)
    {
        try
        {
            return FileDevice.OpenReadOnly(path);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw CannotOpen(path, exception);
        }
    }

    /// <summary>
    /// A read-only engine indexes the committed frames where they lie, without the checkpoint
    /// recovery would run: readers see the file plus those commits, and nothing is written.
    /// </summary>
    private void ViewRecovered(WalScanResult scan)
    {
        if (!scan.HeaderValid)
        {
            return;
        }

        foreach (var frame in scan.CommittedFrames)
        {
            _pages.Push(frame.PageId, frame.Transaction + 1, frame.ImageOffset, null);
            _walPages.Add(frame.PageId);
        }

        AdoptRecoveredRecords(scan);
        _writtenSeq = scan.TransactionCount;
        Publish(scan.TransactionCount);
    }
}
