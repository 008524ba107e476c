using System.Buffers;
using System.Buffers.Binary;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Storage.Encryption;

/// <summary>
/// The database file of an encrypted database, seen by the engine as a plain page array. Each
/// page is stored encrypted where <see cref="EncryptedLayout"/> puts it, after the clear
/// <see cref="EncryptionHeader"/> page and between the version map pages. A page reads back only
/// if it authenticates and is the current version in the <see cref="PageVersionMap"/>; a flush
/// commits the versions written since the last one (the checkpoint's flush is the commit). The
/// engine reads and writes whole pages only (its one smaller read, the fixed header fields of
/// page 0, is served from the decrypted page).
/// </summary>
internal sealed class EncryptedFileDevice : IStorageDevice
{
    /// <summary>Associated data of a database page: kind 1, format version, two zero bytes, database id, page id.</summary>
    private const int AssociatedDataSize = 16;
    private const byte PageKind = 1;

    private readonly EncryptedLayout _layout;
    private readonly List<Target> _retired = [];
    private Target _target;

    public EncryptedFileDevice(IStorageDevice inner, PageCipher cipher, PageVersionMap map, int pageSize, bool isSharedView = false)
    {
        _target = new Target(inner, cipher, map);
        _layout = new EncryptedLayout(pageSize);
        Name = inner.Name;
        IsSharedView = isSharedView;
    }

    public PageCipher Cipher => Volatile.Read(ref _target).Cipher;

    /// <summary>What the last checkpoint committed; the log device seals frames under its counter.</summary>
    public VersionRecord Record => Volatile.Read(ref _target).Map.Record;

    /// <summary>The log beside this file, whose state the next commit records; null before it is opened.</summary>
    public EncryptedWalDevice? Log { get; set; }

    public int PageSize => _layout.PageSize;

    /// <summary>
    /// A read-only view of a file a writer in another engine may be checkpointing: a page refused
    /// because that writer committed newer versions since the view opened is reported as a changed
    /// snapshot (open again), not as damage.
    /// </summary>
    public bool IsSharedView { get; }

    /// <summary>Reports every committed checkpoint counter of the database at <paramref name="databasePath"/> to <paramref name="counter"/>.</summary>
    public void ReportCommits(IRollbackCounter counter, string databasePath) =>
        Volatile.Read(ref _target).Map.Committed = committed => counter.SetCounter(databasePath, committed);

    /// <summary>Whether a writer committed a checkpoint to the file since this device read its version record.</summary>
    public bool ChangedOnDisk() => Volatile.Read(ref _target).Map.ChangedOnDisk();

    /// <summary>The database file's path (it stays the name after a key rotation renamed the new file over it).</summary>
    public string Name { get; }

    public long Length => _layout.LogicalLength(Volatile.Read(ref _target).Inner.Length);

    private IStorageDevice Inner => Volatile.Read(ref _target).Inner;

    /// <summary>Where page <paramref name="pageId"/> is stored in a file of <paramref name="pageSize"/>-byte pages (tests tamper there).</summary>
    public static long StoredOffset(uint pageId, int pageSize) => new EncryptedLayout(pageSize).PageOffset(pageId);

    /// <summary>
    /// Goes on with <paramref name="replacement"/>'s file, key and version map (key rotation). The
    /// old file stays open until this device is disposed: a reader that started before the switch
    /// finishes on the old file, whose pages hold the same plaintext.
    /// </summary>
    public void Adopt(EncryptedFileDevice replacement)
    {
        var old = Interlocked.Exchange(ref _target, replacement._target);
        lock (_retired)
        {
            _retired.Add(old);
        }
    }

    public int Read(long offset, Span<byte> destination)
    {
        if (offset % PageSize == 0 && destination.Length % PageSize == 0)
        {
            var target = Volatile.Read(ref _target);
            var total = 0;
            var stored = ArrayPool<byte>.Shared.Rent(PageSize);
            try
            {
                for (; total < destination.Length; total += PageSize)
                {
                    var raw = stored.AsSpan(0, PageSize);
                    var pageId = PageIdAt(offset + total);
                    if (target.Inner.Read(_layout.PageOffset(pageId), raw) < PageSize)
                    {
                        break;
                    }

                    if (!Decrypt(target, raw, destination.Slice(total, PageSize), pageId) && IsSharedView && target.Map.ChangedOnDisk())
                    {
                        throw new SharedSnapshotChangedException($"Database '{Name}' was checkpointed by a writer while this read-only view was reading it (page {pageId} has a newer version); open it again to read the new state.");
                    }
                }

                return total;
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(stored);
            }
        }

        return ReadPartial(offset, destination);
    }

    public void Write(long offset, ReadOnlySpan<byte> source)
    {
        var stored = ArrayPool<byte>.Shared.Rent(source.Length);
        try
        {
            EncryptPages(offset, source, stored);
            var pages = new List<ReadOnlyMemory<byte>>(source.Length / PageSize);
            for (var at = 0; at < source.Length; at += PageSize)
            {
                pages.Add(stored.AsMemory(at, PageSize));
            }

            WriteRuns(PageIdAt(offset), pages);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(stored);
        }
    }

    public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
    {
        var rented = new List<byte[]>(sources.Count);
        var pages = new List<ReadOnlyMemory<byte>>(sources.Count);
        try
        {
            var position = offset;
            foreach (var source in sources)
            {
                var stored = ArrayPool<byte>.Shared.Rent(source.Length);
                rented.Add(stored);
                EncryptPages(position, source.Span, stored);
                for (var at = 0; at < source.Length; at += PageSize)
                {
                    pages.Add(stored.AsMemory(at, PageSize));
                }

                position += source.Length;
            }

            WriteRuns(PageIdAt(offset), pages);
        }
        finally
        {
            foreach (var buffer in rented)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    /// <summary>Flushes the file; pages written since the last flush become current with it (<see cref="PageVersionMap.Commit"/>).</summary>
    public void Flush()
    {
        var target = Volatile.Read(ref _target);
        if (!target.Map.Commit(Log?.FlushedBinding() ?? default))
        {
            target.Inner.Flush();
        }
    }

    public void SetLength(long length) => Inner.SetLength(_layout.PhysicalLength(length));

    public void Dispose()
    {
        lock (_retired)
        {
            foreach (var retired in _retired)
            {
                retired.Dispose();
            }

            _retired.Clear();
        }

        _target.Dispose();
    }

    private uint PageIdAt(long offset) => (uint)(offset / PageSize);

    /// <summary>Writes consecutive pages from <paramref name="firstPage"/> on, one gathered write per run the map pages do not interrupt.</summary>
    private void WriteRuns(uint firstPage, List<ReadOnlyMemory<byte>> pages)
    {
        var inner = Inner;
        var run = new List<ReadOnlyMemory<byte>>(pages.Count);
        var runStart = _layout.PageOffset(firstPage);
        for (var i = 0; i < pages.Count; i++)
        {
            var at = _layout.PageOffset(firstPage + (uint)i);
            if (run.Count > 0 && at != runStart + ((long)run.Count * PageSize))
            {
                inner.Write(runStart, run);
                run.Clear();
                runStart = at;
            }

            run.Add(pages[i]);
        }

        if (run.Count > 0)
        {
            inner.Write(runStart, run);
        }
    }

    private void EncryptPages(long offset, ReadOnlySpan<byte> source, byte[] stored)
    {
        if (offset % PageSize != 0 || source.Length % PageSize != 0)
        {
            throw new InvalidOperationException($"An encrypted database file is written in whole pages ({source.Length} bytes at offset {offset}).");
        }

        var target = Volatile.Read(ref _target);
        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        for (var at = 0; at < source.Length; at += PageSize)
        {
            var pageId = PageIdAt(offset + at);
            var image = stored.AsSpan(at, PageSize);
            WriteAssociatedData(associatedData, target.Cipher, pageId);
            target.Cipher.Encrypt(source.Slice(at, PageSize), image, pageId, associatedData);
            target.Map.Stage(pageId, PageCipher.TagOf(image));
        }
    }

    /// <summary>Decrypts a stored page, or refuses it (a plain image that fails the engine's check) when it is not the current version or does not authenticate.</summary>
    private static bool Decrypt(Target target, ReadOnlySpan<byte> stored, Span<byte> plain, uint pageId)
    {
        if (!target.Map.Accepts(pageId, PageCipher.TagOf(stored)))
        {
            PageCipher.Refuse(plain, pageId);
            return false;
        }

        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        WriteAssociatedData(associatedData, target.Cipher, pageId);
        return target.Cipher.TryDecrypt(stored, plain, pageId, associatedData);
    }

    private static void WriteAssociatedData(Span<byte> associatedData, PageCipher cipher, uint pageId)
    {
        associatedData.Clear();
        associatedData[0] = PageKind;
        associatedData[1] = (byte)EncryptionHeader.FormatVersion;
        BinaryPrimitives.WriteUInt64LittleEndian(associatedData[4..], cipher.DatabaseId);
        BinaryPrimitives.WriteUInt32LittleEndian(associatedData[12..], pageId);
    }

    private sealed record Target(IStorageDevice Inner, PageCipher Cipher, PageVersionMap Map) : IDisposable
    {
        public void Dispose()
        {
            Inner.Dispose();
            Cipher.Dispose();
        }
    }

    private int ReadPartial(long offset, Span<byte> destination)
    {
        var first = offset / PageSize * PageSize;
        var span = (int)(((offset + destination.Length - first + PageSize - 1) / PageSize) * PageSize);
        var pages = ArrayPool<byte>.Shared.Rent(span);
        try
        {
            var read = Read(first, pages.AsSpan(0, span));
            var available = (int)Math.Clamp(first + read - offset, 0, destination.Length);
            pages.AsSpan((int)(offset - first), available).CopyTo(destination);
            return available;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(pages);
        }
    }
}
