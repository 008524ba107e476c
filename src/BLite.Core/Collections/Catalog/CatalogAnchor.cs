using System.Buffers.Binary;

namespace BLite.Core.Collections.Catalog;

/// <summary>
/// The fixed header in the payload of page 1 (<see cref="Storage.PageIds.Catalog"/>), which
/// anchors everything the collections layer keeps. All offsets are into the page payload,
/// little-endian:
/// <code>
///  0  u32  magic 0x54414342 ("BCAT")      a zeroed page means "catalog not created yet"
///  4  u16  format version (2: numbers share one key class; 1 kept integers, doubles and
///           decimals under separate key tags and is refused, see docs/format.md 4.1)
///  6  u16  reserved, 0
///  8  u32  root page of the catalog B+ tree (collection records and field names)
/// 12  u32  number of field names persisted (ids 0 .. count-1 are in the catalog tree)
/// 16  u64  catalog generation: changes with every structural change (collection or index
///          created or dropped), so readers can tell whether a cached catalog still applies
/// 24  u32  next collection id
/// 28  u32  root page of the change journal's B+ tree (docs/format.md 5), 0 = no journal yet
///           (written as 0 by BLite before the change feed, so an older file has none)
/// </code>
/// Every field is written inside a write transaction, so it is as transactional as the data.
/// </summary>
internal readonly struct CatalogAnchor
{
    public const uint Magic = 0x54414342;
    public const ushort FormatVersion = 2;

    /// <summary>The last version whose index keys kept integers, doubles and decimals apart.</summary>
    public const ushort SeparateNumberKeysVersion = 1;
    public const int Size = 32;

    private const int MagicOffset = 0;
    private const int VersionOffset = 4;
    private const int TreeRootOffset = 8;
    private const int FieldCountOffset = 12;
    private const int GenerationOffset = 16;
    private const int NextCollectionIdOffset = 24;
    private const int JournalRootOffset = 28;

    public CatalogAnchor(uint treeRoot, uint persistedFieldCount, ulong generation, uint nextCollectionId, ushort version = FormatVersion, uint journalRoot = 0)
    {
        JournalRoot = journalRoot;
        Version = version;
        TreeRoot = treeRoot;
        PersistedFieldCount = persistedFieldCount;
        Generation = generation;
        NextCollectionId = nextCollectionId;
    }

    /// <summary>The catalog format as read; anything written is <see cref="FormatVersion"/>.</summary>
    public ushort Version { get; }

    public uint TreeRoot { get; }

    public uint PersistedFieldCount { get; }

    public ulong Generation { get; }

    public uint NextCollectionId { get; }

    /// <summary>The change journal's tree, 0 until a collection with a change feed first commits a change.</summary>
    public uint JournalRoot { get; }

    /// <summary>False for the zeroed page of a database the collections layer has not initialised.</summary>
    public static bool IsInitialised(ReadOnlySpan<byte> page) =>
        BinaryPrimitives.ReadUInt32LittleEndian(page[MagicOffset..]) == Magic;

    /// <param name="acceptSeparateNumberKeys">True only for <c>upgrade</c>, which iterates a format-1 database without comparing its keys.</param>
    public static CatalogAnchor Read(ReadOnlySpan<byte> page, string filePath, bool acceptSeparateNumberKeys = false)
    {
        if (page.Length < Size)
        {
            throw new BLiteCorruptionException(filePath, Storage.PageIds.Catalog, "the catalog page is shorter than its header.");
        }

        var magic = BinaryPrimitives.ReadUInt32LittleEndian(page[MagicOffset..]);
        if (magic != Magic)
        {
            throw new BLiteCorruptionException(filePath, Storage.PageIds.Catalog, $"the catalog page has magic 0x{magic:X8}, expected 0x{Magic:X8}.");
        }

        var version = BinaryPrimitives.ReadUInt16LittleEndian(page[VersionOffset..]);
        if (version == SeparateNumberKeysVersion && !acceptSeparateNumberKeys)
        {
            throw new BLiteException(
                $"Database '{filePath}' has catalog format version 1, whose index keys keep integers, doubles and decimals apart; " +
                $"this BLite orders every number in one key class (format {FormatVersion}) and cannot use those indexes. " +
                $"Run 'blite upgrade {filePath}' to rewrite it in the current format (the original is kept until the new file is complete and verified).");
        }

        if (version != FormatVersion && version != SeparateNumberKeysVersion)
        {
            throw new BLiteException($"Database '{filePath}' has catalog format version {version}; this BLite reads version {FormatVersion}.");
        }

        return new CatalogAnchor(
            BinaryPrimitives.ReadUInt32LittleEndian(page[TreeRootOffset..]),
            BinaryPrimitives.ReadUInt32LittleEndian(page[FieldCountOffset..]),
            BinaryPrimitives.ReadUInt64LittleEndian(page[GenerationOffset..]),
            BinaryPrimitives.ReadUInt32LittleEndian(page[NextCollectionIdOffset..]),
            version,
            BinaryPrimitives.ReadUInt32LittleEndian(page[JournalRootOffset..]));
    }

    /// <summary>Reads only the generation: the one field every operation checks.</summary>
    public static ulong ReadGeneration(ReadOnlySpan<byte> page) =>
        BinaryPrimitives.ReadUInt64LittleEndian(page[GenerationOffset..]);

    public void WriteTo(Span<byte> page)
    {
        page[..Size].Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(page[MagicOffset..], Magic);
        BinaryPrimitives.WriteUInt16LittleEndian(page[VersionOffset..], FormatVersion);
        BinaryPrimitives.WriteUInt32LittleEndian(page[TreeRootOffset..], TreeRoot);
        BinaryPrimitives.WriteUInt32LittleEndian(page[FieldCountOffset..], PersistedFieldCount);
        BinaryPrimitives.WriteUInt64LittleEndian(page[GenerationOffset..], Generation);
        BinaryPrimitives.WriteUInt32LittleEndian(page[NextCollectionIdOffset..], NextCollectionId);
        BinaryPrimitives.WriteUInt32LittleEndian(page[JournalRootOffset..], JournalRoot);
    }

    public CatalogAnchor WithPersistedFieldCount(uint count) => new(TreeRoot, count, Generation, NextCollectionId, journalRoot: JournalRoot);

    public CatalogAnchor WithGeneration(ulong generation) => new(TreeRoot, PersistedFieldCount, generation, NextCollectionId, journalRoot: JournalRoot);

    public CatalogAnchor WithNextCollectionId(uint next) => new(TreeRoot, PersistedFieldCount, Generation, next, journalRoot: JournalRoot);

    public CatalogAnchor WithJournalRoot(uint root) => new(TreeRoot, PersistedFieldCount, Generation, NextCollectionId, journalRoot: root);
}
