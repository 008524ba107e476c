using System.Buffers;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Encryption;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    private const int RekeyBatchPages = 64;

    /// <summary>
    /// Rotates the key of this open, encrypted database (docs/encryption.md): holding the writer
    /// slot, it checkpoints, re-encrypts every page of the file into <c>path.rekey</c> under
    /// <paramref name="encryption"/> (same page numbers, same database id, so every cached page and
    /// every structure above stays valid), reads each page back and compares it, flushes, renames
    /// the copy over the file in one step and restarts the log under the new key. Until the rename
    /// the file is untouched; after it, only the new key opens the database. Readers go on
    /// throughout. Encrypting a plain database or decrypting one changes the page payload size,
    /// so it is a document copy instead (<see cref="DocumentDatabase.Rewrite"/>, with the database closed).
    /// </summary>
    public void Rekey(BLiteEncryption encryption)
    {
        ArgumentNullException.ThrowIfNull(encryption);
        if (_file is not EncryptedFileDevice current)
        {
            throw new BLiteEncryptionException($"Database '{Path}' is not encrypted, so it has no key to rotate in place. Encrypting it rewrites every page with room for the tag: a document copy (DocumentDatabase.Rewrite, used by the context's Database.Rekey and by 'blite rekey').");
        }

        if (Options.Durability == Durability.InMemory)
        {
            throw new BLiteException("An in-memory database has no file to re-encrypt.");
        }

        ThrowIfUnwritable();
        TakeCheckpointGate();
        _writerSlot.Wait();
        try
        {
            ThrowIfUnwritable();
            CheckpointCore();
            var replacement = WriteReencryptedCopy(current, encryption);
            SwapInReencryptedFile(replacement);
            current.Adopt(replacement);
            Options.Encryption = encryption;
            if (encryption.RollbackCounter is { } counter)
            {
                // Only now is the copy the database: told before the rename, a failed rename would
                // leave the counter ahead of the file.
                counter.SetCounter(Path, current.Record.Counter);
                current.ReportCommits(counter, Path);
            }

            lock (_sync)
            {
                _fileEpoch++;
            }

            RestartLogUnderNewKey();
            MakeRenameDurable();
        }
        finally
        {
            _writerSlot.Release();
            ReleaseCheckpointGate();
        }
    }

    /// <summary>The log holds no frame (the checkpoint emptied it); a failure to restart it still leaves a database that opens with the new key.</summary>
    private void RestartLogUnderNewKey()
    {
        try
        {
            _wal.Restart(_wal.Generation + 1);
        }
        catch (IOException exception)
        {
            var failure = new BLiteException($"The key of database '{Path}' was rotated: the database now opens with the new key only. Restarting its write-ahead log afterwards failed ({exception.Message}); the database refuses writes until it is reopened (with the new key).", exception);
            Fail(failure);
            throw failure;
        }
    }

    /// <summary>Flushes the folder after the rename (tests replace it to make the flush fail).</summary>
    internal Action<string> FlushDirectory { get; set; } = FileDevice.FlushDirectoryOf;

    /// <summary>Writes and verifies the copy under the new key; any failure deletes it and leaves the database as it was.</summary>
    private EncryptedFileDevice WriteReencryptedCopy(EncryptedFileDevice current, BLiteEncryption encryption)
    {
        var copyPath = RekeyCopyPath;
        if (File.Exists(copyPath))
        {
            throw new BLiteException($"'{copyPath}' exists, perhaps left by an interrupted rekey; remove it and try again. The database was not changed.");
        }

        var copy = FileDevice.Open(copyPath, FileMode.CreateNew, exclusive: true);
        EncryptedFileDevice? replacement = null;
        try
        {
            replacement = CreateEncrypted(copy, copyPath, encryption, PageSize, DatabaseId, current.Record.Counter);
            CopyPages(current, replacement);
            replacement.Flush();
            return replacement;
        }
        catch (Exception exception)
        {
            DiscardCopy(replacement, copy);
            if (exception is IOException or UnauthorizedAccessException)
            {
                throw Unchanged(exception);
            }

            throw;
        }
    }

    private string RekeyCopyPath => Path + ".rekey";

    /// <summary>Renames the verified copy over the database: the one step after which only the new key opens it.</summary>
    private void SwapInReencryptedFile(EncryptedFileDevice replacement)
    {
        try
        {
            File.Move(RekeyCopyPath, Path, overwrite: true);
        }
        catch (Exception exception)
        {
            DiscardCopy(replacement, null);
            if (exception is IOException or UnauthorizedAccessException)
            {
                throw Unchanged(exception);
            }

            throw;
        }
    }

    /// <summary>
    /// Flushes the folder so the rename survives a power cut. The rotation has happened by now
    /// (the file under the name is the new one, and the engine and its log use the new key), so a
    /// failure here is reported as such: the database opens with the new key; only a power cut
    /// before the folder reaches the disk could bring the old file back.
    /// </summary>
    private void MakeRenameDurable()
    {
        try
        {
            FlushDirectory(Path);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new BLiteException($"The key of database '{Path}' was rotated: the database now opens with the new key only. Flushing its folder afterwards failed ({exception.Message}), so a power cut before the system writes the folder out could bring back the file under the old key: keep the old key until the database has been reopened after a clean shutdown.", exception);
        }
    }

    private void DiscardCopy(EncryptedFileDevice? replacement, IStorageDevice? copy)
    {
        if (replacement is null)
        {
            copy?.Dispose();
        }
        else
        {
            replacement.Dispose();
        }

        File.Delete(RekeyCopyPath);
    }

    private BLiteException Unchanged(Exception exception) =>
        new($"Re-encrypting database '{Path}' failed ({exception.Message}); the database is unchanged, under its old key.", exception);

    /// <summary>Copies every page of the file, decrypted with the old key and sealed with the new one, and reads each back to compare.</summary>
    private void CopyPages(EncryptedFileDevice from, EncryptedFileDevice to)
    {
        var pageCount = from.Length / PageSize;
        var batch = ArrayPool<byte>.Shared.Rent(RekeyBatchPages * PageSize);
        var check = ArrayPool<byte>.Shared.Rent(RekeyBatchPages * PageSize);
        try
        {
            for (long first = 0; first < pageCount; first += RekeyBatchPages)
            {
                var pages = (int)Math.Min(RekeyBatchPages, pageCount - first);
                var plain = batch.AsSpan(0, pages * PageSize);
                if (from.Read(first * PageSize, plain) < plain.Length)
                {
                    throw new BLiteCorruptionException(Path, (uint)first, "the file ends inside a page.");
                }

                for (var i = 0; i < pages; i++)
                {
                    var pageId = (uint)(first + i);
                    var image = plain.Slice(i * PageSize, PageSize);
                    if (!PageLayout.IsSealed(image, pageId))
                    {
                        throw PageCorruption(fromWal: false, pageId, image.ToArray());
                    }
                }

                to.Write(first * PageSize, plain);
                var readBack = check.AsSpan(0, plain.Length);
                if (to.Read(first * PageSize, readBack) < readBack.Length || !readBack.SequenceEqual(plain))
                {
                    throw new BLiteException($"Re-encrypting database '{Path}' failed: pages from {first} on did not read back as written; the database is unchanged, under its old key.");
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(batch);
            ArrayPool<byte>.Shared.Return(check);
        }
    }
}
