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
    /// so it is a document copy instead (<c>blite rekey</c>, with the database closed).
    /// </summary>
    public void Rekey(BLiteEncryption encryption)
    {
        ArgumentNullException.ThrowIfNull(encryption);
        if (_file is not EncryptedFileDevice current)
        {
            throw new BLiteEncryptionException($"Database '{Path}' is not encrypted, so it has no key to rotate. Encrypt it with 'blite rekey' while it is closed (its pages must be rewritten with room for the tag).");
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
            current.Adopt(replacement);
            ((EncryptedWalDevice)_walDevice).UseCipher(current.Cipher);
            lock (_sync)
            {
                _fileEpoch++;
            }

            _wal.Restart(_wal.Generation + 1);
        }
        finally
        {
            _writerSlot.Release();
            ReleaseCheckpointGate();
        }
    }

    private EncryptedFileDevice WriteReencryptedCopy(EncryptedFileDevice current, BLiteEncryption encryption)
    {
        var copyPath = Path + ".rekey";
        if (File.Exists(copyPath))
        {
            throw new BLiteException($"'{copyPath}' exists, perhaps left by an interrupted rekey; remove it and try again. The database was not changed.");
        }

        var copy = FileDevice.Open(copyPath, FileMode.CreateNew, exclusive: true);
        EncryptedFileDevice? replacement = null;
        try
        {
            replacement = CreateEncrypted(copy, copyPath, encryption, PageSize, DatabaseId);
            CopyPages(current, replacement);
            replacement.Flush();
            File.Move(copyPath, Path, overwrite: true);
            return replacement;
        }
        catch (Exception exception)
        {
            if (replacement is null)
            {
                copy.Dispose();
            }
            else
            {
                replacement.Dispose();
            }

            File.Delete(copyPath);
            if (exception is IOException or UnauthorizedAccessException)
            {
                throw new BLiteException($"Re-encrypting database '{Path}' failed ({exception.Message}); the database is unchanged, under its old key.", exception);
            }

            throw;
        }
    }

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
