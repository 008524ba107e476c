using System.Security.Cryptography;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Encryption;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    /// <summary>Whether pages are sealed with AES-GCM rather than a CRC (docs/encryption.md).</summary>
    internal bool IsEncrypted => _file is EncryptedFileDevice;

    /// <summary>How many checkpoints have committed a version map to an encrypted file (null for a plain one).</summary>
    internal long? VersionCounter => (_file as EncryptedFileDevice)?.Record.Counter;

    /// <summary>
    /// Reads what <paramref name="file"/> is, before the WAL is opened or anything is written:
    /// an encrypted file is checked against the key (a wrong or missing key throws
    /// <see cref="BLiteEncryptionException"/>) and, with the right one, comes back wrapped; a new
    /// database asked to be encrypted gets its clear header written first. Plain files come back
    /// as they are. On a throw the caller still owns <paramref name="file"/>.
    /// </summary>
    private static IStorageDevice AttachEncryption(IStorageDevice file, string path, StorageOptions options, bool mayCreate)
    {
        var encryption = options.Encryption;
        var length = file.Length;
        Span<byte> prefix = stackalloc byte[EncryptionHeader.Size];
        var read = length == 0 ? 0 : file.Read(0, prefix);
        if (encryption is not null && mayCreate && IsCreationCutShort(file, prefix[..read], length))
        {
            return CreateEncrypted(file, path, encryption, options.PageSize);
        }

        if (EncryptionHeader.HasMagic(prefix[..read]))
        {
            // Only the header page: creation wrote nothing else, and flushes it before the log exists.
            var mayRecreate = encryption is not null && mayCreate && length <= options.PageSize;
            return OpenEncrypted(file, path, encryption, prefix[..read], options.ReadOnly)
                ?? (mayRecreate ? CreateEncrypted(file, path, encryption!, options.PageSize) : throw NoVersionRecord(path));
        }

        if (encryption is null || length == 0 && !mayCreate)
        {
            return file;
        }

        if (length > 0)
        {
            if (DatabaseHeader.HasMagic(prefix[..read]))
            {
                throw new BLiteEncryptionException($"Database '{path}' is not encrypted, but an encryption key was given. Encrypt it with 'blite rekey' (a copy under the key, verified, then swapped in); nothing was changed.");
            }

            return file;
        }

        return CreateEncrypted(file, path, encryption, options.PageSize);
    }

    /// <summary>The encrypted file wrapped, or null when neither of its version records is valid (a creation a power cut interrupted, or damage).</summary>
    private static EncryptedFileDevice? OpenEncrypted(IStorageDevice file, string path, BLiteEncryption? encryption, ReadOnlySpan<byte> prefix, bool sharedView)
    {
        var header = EncryptionHeader.TryRead(prefix);
        if (header is null)
        {
            throw new BLiteCorruptionException(path, null, "its encryption header fails its checksum; the database cannot be opened without it.");
        }

        if (header.Version > EncryptionHeader.FormatVersion)
        {
            throw new BLiteException($"Database '{path}' is an encrypted BLite database of encryption format {header.Version}; this BLite reads up to format {EncryptionHeader.FormatVersion}.");
        }

        if (header.Version == EncryptionHeader.UnversionedFormat)
        {
            throw new BLiteEncryptionException($"Database '{path}' is an encrypted BLite database of encryption format 1, which cannot detect a page rolled back to an older version; this BLite reads format {EncryptionHeader.FormatVersion} only. Export it with the BLite that wrote it (blite export) and import it here; nothing was changed.");
        }

        if (!PageLayout.IsValidPageSize(header.PageSize))
        {
            throw new BLiteCorruptionException(path, null, $"its encryption header names page size {header.PageSize}, which BLite never writes.");
        }

        if (encryption is null)
        {
            throw new BLiteEncryptionException($"Database '{path}' is encrypted (encrypted BLite database, format {header.Version}) and no key was given. Open it with its key or password (DocumentDbContextOptions.Encryption; for the CLI --key-file, BLITE_KEY or BLITE_PASSWORD).");
        }

        var wantsPassword = header.KeySource == EncryptionHeader.KeySourcePassword;
        if (wantsPassword != encryption.UsesPassword)
        {
            throw new BLiteEncryptionException($"Wrong key for database '{path}': it is encrypted with {(wantsPassword ? "a password" : "a key")}, and {(wantsPassword ? "a key" : "a password")} was given. Nothing was changed.");
        }

        var key = encryption.DeriveKey(path, header.Salt, header.Iterations);
        if (!header.Accepts(key))
        {
            CryptographicOperations.ZeroMemory(key);
            throw new BLiteEncryptionException($"Wrong key for database '{path}': the key check in its header does not match. Nothing was changed.");
        }

        var cipher = new PageCipher(key, header.DatabaseId);
        try
        {
            var map = LoadVersionMap(file, cipher, new EncryptedLayout(header.PageSize), path, sharedView);
            if (map is null)
            {
                cipher.Dispose();
                return null;
            }

            var device = new EncryptedFileDevice(file, cipher, map, header.PageSize, sharedView);
            if (encryption.RollbackCounter is { } counter)
            {
                CheckNotRolledBack(counter, path, map.Record.Counter);
                device.ReportCommits(counter, path);
            }

            return device;
        }
        catch
        {
            cipher.Dispose();
            throw;
        }
    }

    private static BLiteCorruptionException NoVersionRecord(string path) =>
        new(path, null, "both version records in its encryption header fail authentication; which page versions are current cannot be told.");

    /// <summary>Refuses a file older than the last checkpoint the application's rollback counter saw it commit.</summary>
    private static void CheckNotRolledBack(IRollbackCounter counter, string path, long fileCounter)
    {
        var known = counter.GetCounter(path);
        if (known > fileCounter)
        {
            throw new BLiteCorruptionException(path, null, $"it was rolled back: its file holds checkpoint {fileCounter}, but the rollback counter recorded checkpoint {known}, so the database file (with its log) was replaced by an older copy of itself. Nothing was changed.");
        }
    }

    /// <summary>
    /// Loads the version map. A read-only view may read it while a writer in another engine
    /// commits checkpoints, and then see a record and map pages of different checkpoints: it reads
    /// again a few times before calling that damage.
    /// </summary>
    private static PageVersionMap? LoadVersionMap(IStorageDevice file, PageCipher cipher, EncryptedLayout layout, string path, bool sharedView)
    {
        const int Attempts = 3;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return PageVersionMap.TryLoad(file, cipher, layout, path);
            }
            catch (BLiteCorruptionException) when (sharedView && attempt < Attempts)
            {
                // Read again: a consistent record and map are on disk between two checkpoints.
            }
        }
    }

    /// <summary>
    /// Whether the file is what a power cut while its clear header was first written leaves: too
    /// short to hold a database, and either all zeros or a torn header page. The header is flushed
    /// before the log exists, so such a file holds no commit and is created again. Any other
    /// content (a foreign file) is left alone and refused later.
    /// </summary>
    private static bool IsCreationCutShort(IStorageDevice file, ReadOnlySpan<byte> prefix, long length)
    {
        if (length == 0 || length >= 3 * PageLayout.MinPageSize)
        {
            return false;
        }

        if (EncryptionHeader.HasMagic(prefix))
        {
            return EncryptionHeader.TryRead(prefix) is null;
        }

        // A torn header page may have lost its first sector but kept a version record's: zeros
        // everywhere else.
        var content = new byte[length];
        if (file.Read(0, content) != length)
        {
            return false;
        }

        for (var slot = 0; slot < 2 && VersionRecord.Offset(slot) < length; slot++)
        {
            content.AsSpan(VersionRecord.Offset(slot), (int)Math.Min(VersionRecord.Size, length - VersionRecord.Offset(slot))).Clear();
        }

        return !content.AsSpan().ContainsAnyExcept((byte)0);
    }

    /// <param name="counter">Where the new file's checkpoint counter starts (a re-encrypted copy goes on from its original's).</param>
    private static EncryptedFileDevice CreateEncrypted(IStorageDevice file, string path, BLiteEncryption encryption, int pageSize, ulong? databaseId = null, long? counter = null)
    {
        var salt = new byte[16];
        RandomNumberGenerator.Fill(salt);
        var header = new EncryptionHeader
        {
            PageSize = pageSize,
            DatabaseId = databaseId ?? NewDatabaseId(),
            KeySource = encryption.UsesPassword ? EncryptionHeader.KeySourcePassword : EncryptionHeader.KeySourceKey,
            Iterations = encryption.UsesPassword ? BLiteEncryption.PasswordIterations : 0,
            Salt = salt,
        };
        var key = encryption.DeriveKey(path, salt, header.Iterations);
        header.KeyCheck = header.ComputeKeyCheck(key);
        var page = new byte[pageSize];
        header.Write(page);
        var cipher = new PageCipher(key, header.DatabaseId);
        var rollbackCounter = encryption.RollbackCounter;
        var map = PageVersionMap.Create(file, cipher, new EncryptedLayout(pageSize), page, counter ?? rollbackCounter?.GetCounter(path) ?? 0);
        var device = new EncryptedFileDevice(file, cipher, map, pageSize);
        if (rollbackCounter is not null && counter is null)
        {
            device.ReportCommits(rollbackCounter, path);
        }

        return device;
    }

    /// <summary>The log device beside <paramref name="file"/>; an encrypted one is checked against the base log the file's last checkpoint recorded.</summary>
    private static IStorageDevice WrapLog(IStorageDevice file, IStorageDevice wal)
    {
        if (file is not EncryptedFileDevice encrypted)
        {
            return wal;
        }

        var log = new EncryptedWalDevice(wal, encrypted);
        try
        {
            log.CheckBelongsToFile(file.Name);
            log.CheckAgainstCommittedBase(file.Name);
        }
        catch (BLiteCorruptionException) when (encrypted.IsSharedView && encrypted.ChangedOnDisk())
        {
            throw new SharedSnapshotChangedException($"Database '{file.Name}' was checkpointed by a writer while this read-only view was opening it; open it again to read the new state.");
        }

        return log;
    }
}
