using System.Buffers.Binary;
using System.Diagnostics;
using BLite.Core.Diagnostics;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Paging;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    /// <summary>The WAL's path for a database file: <c>name.blite</c> → <c>name.blite-wal</c>.</summary>
    public static string WalPathFor(string databasePath) => databasePath + "-wal";

    /// <summary>
    /// Opens the database at <paramref name="path"/>, creating it when the file is missing or
    /// empty, and recovers committed transactions from its WAL. Both files are locked for the
    /// engine's lifetime. Throws <see cref="BLiteException"/> for a file that is not a BLite
    /// database or has a newer format (the file is left untouched),
    /// <see cref="BLiteDatabaseLockedException"/> when another engine has it open, and
    /// <see cref="BLiteCorruptionException"/> for damage recovery cannot explain as a torn write.
    /// </summary>
    public static StorageEngine Open(string path, StorageOptions options)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentNullException.ThrowIfNull(options);
        var validated = options.Validated();
        if (validated.Durability == Durability.InMemory)
        {
            var memory = AttachEncryption(new MemoryDevice(path), path, validated, mayCreate: true);
            return OpenCore(path, memory, WrapLog(memory, new MemoryDevice(WalPathFor(path))), validated);
        }

        var fullPath = System.IO.Path.GetFullPath(path);
        CheckPaths(fullPath, validated.ReadOnly);
        if (validated.ReadOnly)
        {
            return OpenReadOnly(fullPath, validated);
        }

        IStorageDevice file = OpenLocked(fullPath);
        FileDevice? wal = null;
        try
        {
            file = AttachEncryption(file, fullPath, validated, mayCreate: true);
            var walPath = WalPathFor(fullPath);
            var walExisted = File.Exists(walPath);
            if (!walExisted)
            {
                ProbeHeader(file, fullPath, walMayHoldHeader: false);
            }

            wal = OpenLocked(walPath);
            return OpenCore(fullPath, file, WrapLog(file, wal), validated);
        }
        catch
        {
            wal?.Dispose();
            file.Dispose();
            throw;
        }
    }

    /// <summary>A database that lives in memory only (its durability is forced to <see cref="Durability.InMemory"/>).</summary>
    public static StorageEngine OpenInMemory(StorageOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var validated = options.Validated();
        validated.Durability = Durability.InMemory;
        var memory = AttachEncryption(new MemoryDevice(":memory:"), ":memory:", validated, mayCreate: true);
        return OpenCore(":memory:", memory, WrapLog(memory, new MemoryDevice(":memory:-wal")), validated);
    }

    /// <summary>
    /// Opens a database on caller-supplied devices (file and WAL), e.g. fault-injecting ones.
    /// The engine owns the devices from here on and disposes them.
    /// </summary>
    public static StorageEngine Open(IStorageDevice file, IStorageDevice wal, StorageOptions options)
    {
        ArgumentNullException.ThrowIfNull(file);
        ArgumentNullException.ThrowIfNull(wal);
        ArgumentNullException.ThrowIfNull(options);
        var validated = options.Validated();
        try
        {
            file = AttachEncryption(file, file.Name, validated, mayCreate: !validated.ReadOnly);
            return OpenCore(file.Name, file, WrapLog(file, wal), validated);
        }
        catch
        {
            wal.Dispose();
            file.Dispose();
            throw;
        }
    }

    private static FileDevice OpenLocked(string path)
    {
        try
        {
            return FileDevice.Open(path, FileMode.OpenOrCreate, exclusive: true);
        }
        catch (IOException exception) when (File.Exists(path) && IsSharingViolation(exception))
        {
            throw new BLiteDatabaseLockedException(path, exception);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw CannotOpen(path, exception);
        }
    }

    // Windows reports ERROR_SHARING_VIOLATION / ERROR_LOCK_VIOLATION (32, 33); on Unix .NET puts the
    // raw errno of the refused flock in HResult: EWOULDBLOCK is 11 on Linux and 35 on macOS.
    private static bool IsSharingViolation(IOException exception) =>
        OperatingSystem.IsWindows()
            ? (exception.HResult & 0xFFFF) is 32 or 33
            : exception.HResult == (OperatingSystem.IsLinux() ? 11 : 35);

    /// <param name="logFileMissing">A read-only open found no log file and passes an empty stand-in for it.</param>
    private static StorageEngine OpenCore(string path, IStorageDevice file, IStorageDevice walDevice, StorageOptions options, bool logFileMissing = false)
    {
        var started = Stopwatch.GetTimestamp();
        BLiteTelemetry.EnsurePublished();
        using var activity = BLiteTelemetry.ActivitySource.StartActivity("open");
        // A read-only view looks at the log before judging it, so a writer's restart during the
        // scan is noticed (SharedLogWatch).
        var watch = options.ReadOnly ? new SharedLogWatch(path, WalPathFor(path), logFileMissing ? null : walDevice) : null;

        // The file's fixed header fields let the scanner validate frames behind a damaged WAL
        // header; a file without them is judged only after the scan (it may be a creation whose
        // first checkpoint was cut short).
        var fileHeader = ProbeHeader(file, path, walMayHoldHeader: true);

        // Measured after the watch read the log header and before the scan: a read-only view
        // then counts no page that a writer's checkpoint copied in from frames its scan missed.
        var fileLength = file.Length;
        var scan = ScanLog(walDevice, path, fileHeader, watch);
        var recovering = scan.HeaderValid && scan.TransactionCount > 0;

        // Creation writes page 0 to the file only in its first checkpoint; a crash during that
        // write can leave a file without its magic while the WAL still holds the header page.
        var walHoldsHeader = recovering && scan.CommittedFrames.Exists(frame => frame.PageId == PageIds.Header);
        var probe = ProbeHeader(file, path, walMayHoldHeader: walHoldsHeader);
        if (probe is { } header && recovering && (scan.PageSize != header.PageSize || scan.DatabaseId != header.DatabaseId))
        {
            throw new BLiteException($"The write-ahead log '{walDevice.Name}' belongs to another database than '{path}' (different database id or page size); refusing to apply it.");
        }

        if (probe is null && file.Length > 0 && !recovering)
        {
            throw NotADatabase(path);
        }

        var creating = probe is null && !recovering;
        if (creating && options.ReadOnly)
        {
            throw new BLiteException($"Database '{path}' is empty (0 bytes): it was never created, and a read-only open does not create it.");
        }

        // An encrypted database's identity is fixed by its clear header, written before anything else.
        var encrypted = file as Encryption.EncryptedFileDevice;
        var pageSize = probe?.PageSize ?? (recovering ? scan.PageSize : encrypted?.PageSize ?? options.PageSize);
        var databaseId = probe?.DatabaseId ?? (recovering ? scan.DatabaseId : encrypted?.Cipher.DatabaseId ?? NewDatabaseId());
        var engine = new StorageEngine(path, options, file, walDevice, pageSize, databaseId);
        engine.OpenedAfterUncleanClose = recovering || walDevice.Length > WalFormat.HeaderSize;
        try
        {
            if (watch is not null)
            {
                watch.Arm(scan, pageSize);
                engine._sharedLog = watch;
                engine.ViewRecovered(scan);
                engine.StartPageCount(fileLength / pageSize);
            }
            else if (recovering)
            {
                engine.Recover(scan, fileLength / pageSize);
            }
            else
            {
                engine._wal.Restart(scan.HeaderValid ? scan.Generation + 1 : 1);
                if (!creating)
                {
                    engine.StartPageCount(fileLength / pageSize);
                }
            }

            if (creating)
            {
                engine.InitializeNewDatabase();
            }

            engine.CheckHeaderPage();
            s_openEngines.TryAdd(engine, 0);
            if (recovering)
            {
                engine.Log.Recovered(path, scan.TransactionCount, scan.CommittedFrames.Count);
            }

            engine.Log.DatabaseOpened(path, options.Durability, pageSize, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            return engine;
        }
        catch (IOException exception)
        {
            engine.CloseWithoutCheckpoint();
            throw new BLiteException($"Opening database '{path}' failed: {exception.Message}", exception);
        }
        catch
        {
            engine.CloseWithoutCheckpoint();
            throw;
        }
    }

    private static WalScanResult ScanLog(IStorageDevice walDevice, string path, DatabaseHeader? fileHeader, SharedLogWatch? watch)
    {
        try
        {
            return WalScanner.Scan(walDevice, path, fileHeader);
        }
        catch (BLiteCorruptionException) when (watch is not null)
        {
            // A writer that restarted the log during a read-only scan makes intact frames look
            // damaged; only damage seen in an unchanged log is damage.
            watch.ThrowIfLogRestarted();
            return RescanAppendedLog(walDevice, path, fileHeader, watch);
        }
    }

    /// <summary>
    /// A writer appending right after a restart can also fool a read-only scan without changing
    /// the header: the scan reads a slot while it still holds a frame of the old generation, then
    /// reads later frames, written meanwhile, that record the slot as flushed. The slot is intact
    /// by the time it is read again, so a few fresh scans tell that race from damage.
    /// </summary>
    private static WalScanResult RescanAppendedLog(IStorageDevice walDevice, string path, DatabaseHeader? fileHeader, SharedLogWatch watch)
    {
        const int Rescans = 3;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                var scan = WalScanner.Scan(walDevice, path, fileHeader);
                watch.ThrowIfLogRestarted();
                return scan;
            }
            catch (BLiteCorruptionException) when (attempt < Rescans)
            {
                watch.ThrowIfLogRestarted();
            }
        }
    }

    /// <summary>
    /// Reads the fixed part of page 0 straight from the file: magic, version, page size and id
    /// never change after creation, so the file's copy is authoritative even when the WAL holds a
    /// newer page 0. Returns null for an empty (or, when the WAL may supply it, too short) file.
    /// </summary>
    private static DatabaseHeader? ProbeHeader(IStorageDevice file, string path, bool walMayHoldHeader)
    {
        var length = file.Length;
        if (length == 0)
        {
            return null;
        }

        Span<byte> prefix = stackalloc byte[DatabaseHeader.FixedPrefixSize];
        if (length < prefix.Length || file.Read(0, prefix) < prefix.Length)
        {
            return walMayHoldHeader || length == 0 ? null : throw NotADatabase(path);
        }

        if (!DatabaseHeader.HasMagic(prefix))
        {
            return walMayHoldHeader ? null : throw NotADatabase(path);
        }

        var header = DatabaseHeader.Read(prefix);
        if (header.Version > DatabaseHeader.FormatVersion)
        {
            throw new BLiteException($"Database '{path}' has format version {header.Version}; this BLite reads up to version {DatabaseHeader.FormatVersion}. Open it with a newer BLite.");
        }

        if (header.Version == 0 || !PageLayout.IsValidPageSize(header.PageSize))
        {
            throw new BLiteCorruptionException(path, PageIds.Header, $"the header names format version {header.Version} and page size {header.PageSize}, which BLite never writes.");
        }

        return header;
    }

    private static BLiteException NotADatabase(string path) =>
        new($"'{path}' is not a BLite database (its first bytes are not the BLite header); it was left unchanged.");

    private static ulong NewDatabaseId()
    {
        Span<byte> bytes = stackalloc byte[8];
        Random.Shared.NextBytes(bytes);
        return BinaryPrimitives.ReadUInt64LittleEndian(bytes) | 1;
    }

    /// <summary>
    /// Rebuilds the WAL index from the committed frames, then checkpoints them into the file (once
    /// their log records are folded, when there are any: see <see cref="CompleteRecovery"/>).
    /// </summary>
    /// <param name="filePages">The file's length in pages before the scan (see <see cref="StartPageCount"/>).</param>
    private void Recover(WalScanResult scan, long filePages)
    {
        foreach (var frame in scan.CommittedFrames)
        {
            _pages.Push(frame.PageId, frame.Transaction + 1, frame.ImageOffset, null);
            _walPages.Add(frame.PageId);
        }

        _writtenSeq = scan.TransactionCount;
        Publish(scan.TransactionCount);
        StartPageCount(filePages);
        RecoveredTransactions = scan.TransactionCount;
        _wal.AdoptRecovered(scan.Generation, scan.Salt, scan.CommittedChecksum, scan.CommittedFrameCount, scan.CommittedEnd);
        if (!AdoptRecoveredRecords(scan))
        {
            CheckpointCore();
        }
    }

    /// <summary>A new database is its first transaction: header page and zeroed catalog page, through the WAL.</summary>
    private void InitializeNewDatabase()
    {
        var header = new byte[PageSize];
        new DatabaseHeader
        {
            Version = DatabaseHeader.FormatVersion,
            PageSize = PageSize,
            PageCount = 2,
            DatabaseId = DatabaseId,
        }.Write(header);
        PageLayout.Seal(header, PageIds.Header);
        var catalog = new byte[PageSize];
        PageLayout.Seal(catalog, PageIds.Catalog);

        var lsn = AppendCommit([PageIds.Header, PageIds.Catalog], [header, catalog], default, out _);
        WaitDurable(lsn);
        CheckpointCore();
    }

    private void CheckHeaderPage()
    {
        var header = DatabaseHeader.Read(GetImage(PageIds.Header, _publishedSeq));
        if (header.PageSize != PageSize || header.DatabaseId != DatabaseId || header.PageCount < 2)
        {
            throw new BLiteCorruptionException(Path, PageIds.Header, "the header page disagrees with the file's fixed header fields.");
        }
    }
}
