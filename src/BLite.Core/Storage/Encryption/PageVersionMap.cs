using System.Buffers;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Security.Cryptography;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Storage.Encryption;

/// <summary>
/// Which version of every page of an encrypted database file is current (encryption format 2),
/// so that a page replaced by an older authentic version of itself is refused. A page's version
/// is the first 8 bytes of its GCM tag: every write seals under a fresh nonce, so every version
/// has its own tag, and nobody without the key can make a page with a chosen tag.
/// <para>
/// The map is kept in map pages, one per group of K pages (<see cref="EncryptedLayout"/>), each
/// sealed like a page with associated data binding its group and slot, and holding the counter
/// of the checkpoint that wrote it and the K tags. Each group has two slots: a checkpoint writes
/// the changed groups into their spare slot, flushes, then writes a <see cref="VersionRecord"/>
/// (its counter, and the SHA-256 of the current map pages' tags) into the spare record slot of
/// the header and flushes again. Until that record is whole on disk the previous one, and the
/// map pages it names, stay current; pages written meanwhile are still in the log, which
/// recovery replays. At open, each group's current slot is the authentic one with the highest
/// counter not above the record's, and the tags of those pages must hash to the record's root.
/// </para>
/// </summary>
internal sealed class PageVersionMap
{
    public const int CounterSize = 8;
    public const int EntrySize = 8;
    private const int AssociatedDataSize = 20;
    private const byte MapKind = 3;
    private const uint MapPageId = uint.MaxValue;

    private readonly IStorageDevice _inner;
    private readonly PageCipher _cipher;
    private readonly EncryptedLayout _layout;
    private readonly byte[] _clearHeader;
    private readonly ConcurrentDictionary<uint, ulong> _staged = new();
    private ulong[] _tags;
    private GroupSlot[] _groups;
    private VersionRecord _record;
    private int _recordSlot;

    private PageVersionMap(IStorageDevice inner, PageCipher cipher, EncryptedLayout layout, byte[] clearHeader, VersionRecord record, int recordSlot, ulong[] tags, GroupSlot[] groups)
    {
        _inner = inner;
        _cipher = cipher;
        _layout = layout;
        _clearHeader = clearHeader;
        _record = record;
        _recordSlot = recordSlot;
        _tags = tags;
        _groups = groups;
    }

    public VersionRecord Record => Volatile.Read(ref _record);

    /// <summary>Called with the new counter once a commit's record is on disk (an <see cref="IRollbackCounter"/>).</summary>
    public Action<long>? Committed { get; set; }

    /// <summary>
    /// The map of a new file: writes <paramref name="headerPage"/> (the clear header) with an empty
    /// record in slot 0, whose counter starts at <paramref name="counter"/> (a re-encrypted copy
    /// goes on from its original's, so a rollback counter kept outside never sees it go back).
    /// </summary>
    public static PageVersionMap Create(IStorageDevice inner, PageCipher cipher, EncryptedLayout layout, byte[] headerPage, long counter)
    {
        var clearHeader = headerPage.AsSpan(0, EncryptionHeader.Size).ToArray();
        var record = VersionRecord.Empty with { Counter = counter };
        record.Write(headerPage.AsSpan(VersionRecord.Offset(0)), clearHeader, cipher);
        inner.SetLength(0);
        inner.Write(0, headerPage);
        inner.Flush();
        return new PageVersionMap(inner, cipher, layout, clearHeader, record, 0, [], []);
    }

    /// <summary>
    /// Reads the committed record and map; throws <see cref="BLiteCorruptionException"/> when they
    /// do not hold together. Returns null when neither record slot holds a valid record.
    /// </summary>
    public static PageVersionMap? TryLoad(IStorageDevice inner, PageCipher cipher, EncryptedLayout layout, string path)
    {
        var headerPage = new byte[layout.PageSize];
        inner.Read(0, headerPage);
        var clearHeader = headerPage.AsSpan(0, EncryptionHeader.Size).ToArray();
        var first = VersionRecord.TryRead(headerPage.AsSpan(VersionRecord.Offset(0)), clearHeader, cipher);
        var second = VersionRecord.TryRead(headerPage.AsSpan(VersionRecord.Offset(1)), clearHeader, cipher);
        if (first is null && second is null)
        {
            return null;
        }

        var slot = second is not null && (first is null || second.Counter > first.Counter) ? 1 : 0;
        var record = (slot == 1 ? second : first)!;
        var tags = new ulong[(long)record.Groups * layout.PagesPerGroup];
        var groups = new GroupSlot[record.Groups];
        var plain = new byte[layout.PageSize];
        var stored = new byte[layout.PageSize];
        for (var group = 0; group < record.Groups; group++)
        {
            groups[group] = LoadGroup(inner, cipher, layout, path, record, group, plain, stored, tags);
        }

        if (!RootOf(groups).AsSpan().SequenceEqual(record.Root))
        {
            throw new BLiteCorruptionException(path, null, "its version map does not match the root in its encryption header: a map page was replaced with an older version of itself (rollback), so which page versions are current cannot be trusted.");
        }

        return new PageVersionMap(inner, cipher, layout, clearHeader, record, slot, tags, groups);
    }

    /// <summary>
    /// Whether the file now holds a newer version record than the one this map was loaded with: a
    /// writer in another engine committed a checkpoint since (only a read-only view can see that).
    /// </summary>
    public bool ChangedOnDisk()
    {
        var headerPage = new byte[_layout.PageSize];
        if (_inner.Read(0, headerPage) < 3 * 1024)
        {
            return false;
        }

        for (var slot = 0; slot < 2; slot++)
        {
            if (VersionRecord.TryRead(headerPage.AsSpan(VersionRecord.Offset(slot)), _clearHeader, _cipher) is { } record && record.Counter > Record.Counter)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Whether a stored image whose tag starts with <paramref name="tag"/> is the current version of <paramref name="pageId"/>.</summary>
    public bool Accepts(uint pageId, ulong tag)
    {
        // Staged first: a commit publishes the new tags before it drops them from the staged set.
        if (_staged.TryGetValue(pageId, out var staged) && staged == tag)
        {
            return true;
        }

        var tags = Volatile.Read(ref _tags);
        return pageId < tags.Length && tag != 0 && Volatile.Read(ref tags[pageId]) == tag;
    }

    /// <summary>Records the version of a page just written; it becomes current at the next <see cref="Commit"/>.</summary>
    public void Stage(uint pageId, ulong tag) => _staged[pageId] = tag;

    /// <summary>
    /// Makes every staged version current: the changed map pages into their spare slots, one flush
    /// for them and the pages written since the last commit (the spare slots are not read until a
    /// record names them, so their order does not matter), then the new record (bound to
    /// <paramref name="log"/>, the log the checkpoint copied from) into the spare record slot, and
    /// a second flush. Returns false, having written nothing, when nothing was staged.
    /// </summary>
    public bool Commit(LogBinding log)
    {
        if (_staged.IsEmpty)
        {
            return false;
        }

        var staged = _staged.ToArray();
        var record = _record;
        var counter = record.Counter + 1;
        var groupCount = record.Groups;
        foreach (var (pageId, _) in staged)
        {
            groupCount = Math.Max(groupCount, _layout.GroupOf(pageId) + 1);
        }

        var tags = _tags;
        var needed = (long)groupCount * _layout.PagesPerGroup;
        if (needed > tags.Length)
        {
            var grown = new ulong[needed];
            tags.CopyTo(grown, 0);
            tags = grown;
        }

        // Entries the readers do not consult yet (the staged set answers for these pages).
        var dirty = new SortedSet<int>();
        foreach (var (pageId, tag) in staged)
        {
            Volatile.Write(ref tags[pageId], tag);
            dirty.Add(_layout.GroupOf(pageId));
        }

        var groups = new GroupSlot[groupCount];
        _groups.CopyTo(groups, 0);
        WriteMapPages(tags, groups, dirty, counter);
        _inner.Flush();

        var next = new VersionRecord(counter, groupCount, log.Generation, log.Salt, record.SealingCounterFor(log.Generation, log.Salt), log.DurableFrames, RootOf(groups));
        var slot = 1 - _recordSlot;
        var bytes = new byte[VersionRecord.Size];
        next.Write(bytes, _clearHeader, _cipher);
        _inner.Write(VersionRecord.Offset(slot), bytes);
        _inner.Flush();

        Volatile.Write(ref _tags, tags);
        _groups = groups;
        _recordSlot = slot;
        Volatile.Write(ref _record, next);
        foreach (var entry in staged)
        {
            _staged.TryRemove(entry);
        }

        Committed?.Invoke(counter);
        return true;
    }

    private void WriteMapPages(ulong[] tags, GroupSlot[] groups, SortedSet<int> dirty, long counter)
    {
        var plain = ArrayPool<byte>.Shared.Rent(_layout.PageSize);
        var stored = ArrayPool<byte>.Shared.Rent(_layout.PageSize);
        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        try
        {
            foreach (var group in dirty)
            {
                var slot = groups[group].Tag is null ? 0 : 1 - groups[group].Slot;
                var page = plain.AsSpan(0, _layout.PageSize);
                page.Clear();
                BinaryPrimitives.WriteInt64LittleEndian(page, counter);
                var entries = tags.AsSpan(group * _layout.PagesPerGroup, _layout.PagesPerGroup);
                for (var i = 0; i < entries.Length; i++)
                {
                    BinaryPrimitives.WriteUInt64LittleEndian(page[(CounterSize + (i * EntrySize))..], entries[i]);
                }

                var image = stored.AsSpan(0, _layout.PageSize);
                WriteAssociatedData(associatedData, _cipher, group, slot);
                _cipher.Encrypt(page, image, MapPageId, associatedData);
                _inner.Write(_layout.MapOffset(group, slot), image);
                groups[group] = new GroupSlot(slot, image[^PageCipher.TagSize..].ToArray());
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(plain);
            ArrayPool<byte>.Shared.Return(stored);
        }
    }

    private static GroupSlot LoadGroup(IStorageDevice inner, PageCipher cipher, EncryptedLayout layout, string path, VersionRecord record, int group, byte[] plain, byte[] stored, ulong[] tags)
    {
        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        var best = -1;
        var bestCounter = -1L;
        byte[]? bestTag = null;
        for (var slot = 0; slot < 2; slot++)
        {
            if (inner.Read(layout.MapOffset(group, slot), stored) < stored.Length)
            {
                continue;
            }

            WriteAssociatedData(associatedData, cipher, group, slot);
            if (!cipher.TryDecrypt(stored, plain, MapPageId, associatedData))
            {
                continue;
            }

            var counter = BinaryPrimitives.ReadInt64LittleEndian(plain);
            if (counter <= record.Counter && counter > bestCounter)
            {
                best = slot;
                bestCounter = counter;
                bestTag = stored.AsSpan(stored.Length - PageCipher.TagSize).ToArray();
                var entries = tags.AsSpan(group * layout.PagesPerGroup, layout.PagesPerGroup);
                for (var i = 0; i < entries.Length; i++)
                {
                    entries[i] = BinaryPrimitives.ReadUInt64LittleEndian(plain.AsSpan(CounterSize + (i * EntrySize)));
                }
            }
        }

        if (bestTag is null)
        {
            var firstPage = (long)group * layout.PagesPerGroup;
            throw new BLiteCorruptionException(path, null, $"the version map page of pages {firstPage} to {firstPage + layout.PagesPerGroup - 1} fails authentication in both of its slots; which page versions are current cannot be told.");
        }

        return new GroupSlot(best, bestTag);
    }

    private static byte[] RootOf(GroupSlot[] groups)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        foreach (var group in groups)
        {
            hash.AppendData(group.Tag!);
        }

        return hash.GetHashAndReset();
    }

    private static void WriteAssociatedData(Span<byte> associatedData, PageCipher cipher, int group, int slot)
    {
        associatedData.Clear();
        associatedData[0] = MapKind;
        associatedData[1] = (byte)EncryptionHeader.FormatVersion;
        BinaryPrimitives.WriteUInt64LittleEndian(associatedData[4..], cipher.DatabaseId);
        BinaryPrimitives.WriteInt32LittleEndian(associatedData[12..], group);
        BinaryPrimitives.WriteInt32LittleEndian(associatedData[16..], slot);
    }

    /// <summary>A group's current map page: its slot and its GCM tag (what the record's root hashes).</summary>
    private readonly record struct GroupSlot(int Slot, byte[]? Tag);
}

/// <summary>The log a checkpoint copied from, as the log device last saw it flushed.</summary>
internal readonly record struct LogBinding(uint Generation, uint Salt, long DurableFrames);
