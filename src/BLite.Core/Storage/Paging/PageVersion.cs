namespace BLite.Core.Storage.Paging;

/// <summary>
/// One committed image of a page, as some snapshots see it. Versions of a page form a chain,
/// newest first; a snapshot sees the newest version whose <see cref="Seq"/> is at or below its own,
/// or the database file's content when the chain has none.
/// </summary>
internal sealed class PageVersion
{
    /// <summary><see cref="WalOffset"/> when the database file holds this image at the page's own position.</summary>
    public const long InMainFile = -1;

    /// <summary><see cref="WalOffset"/> of a pinned version: only memory holds it.</summary>
    public const long InMemoryOnly = -2;

    public PageVersion(uint pageId, long seq, long walOffset, byte[]? image)
    {
        PageId = pageId;
        Seq = seq;
        WalOffset = walOffset;
        Image = image;
    }

    public uint PageId { get; }

    /// <summary>The commit that produced the image; 0 for content older than anything this engine committed.</summary>
    public long Seq { get; }

    /// <summary>
    /// The <see cref="Seq"/> of the version that replaced this one, <see cref="long.MaxValue"/>
    /// while none has: the snapshots from <see cref="Seq"/> up to, not including, this value see
    /// this version. It only ever goes down from <see cref="long.MaxValue"/> to a commit later than
    /// every snapshot already published, so a reader that finds its snapshot inside the range
    /// without the engine lock may trust it (see <see cref="StorageEngine.TryGetHotPage"/>). A
    /// version unlinked from the middle of its chain keeps its successor's old value: the range
    /// stays too narrow, never too wide.
    /// </summary>
    public long ReplacedAt => Volatile.Read(ref _replacedAt);

    private long _replacedAt = long.MaxValue;

    /// <summary>Records the commit whose version now stands above this one (under the engine lock).</summary>
    public void ReplaceAt(long seq) => Volatile.Write(ref _replacedAt, seq);

    /// <summary>
    /// Whether <paramref name="snapshot"/> (registered, so the version it sees is never dropped
    /// under it) reads this version and finds its image cached: the one test every lock-free
    /// path takes before trusting a version it remembered (the hot-page memo, the point index).
    /// An evicted or dropped version has no image, so it fails here whatever its range says.
    /// </summary>
    public bool ServesCached(long snapshot) => Seq <= snapshot && snapshot < ReplacedAt && Image is not null;

    /// <summary>Where the image can be re-read: the image's offset in the current WAL generation, or <see cref="InMainFile"/>.</summary>
    public long WalOffset { get; set; }

    /// <summary>The immutable image when cached (or pinned), else null.</summary>
    public byte[]? Image { get; set; }

    public PageVersion? Older { get; set; }

    /// <summary>Kept in memory for old snapshots after a checkpoint overwrote its place in the file; never evicted.</summary>
    public bool Pinned { get; set; }

    /// <summary>Unlinked from its chain; an image arriving for it later is not cached.</summary>
    public bool Dropped { get; set; }

    internal PageVersion? LruPrevious { get; set; }

    internal PageVersion? LruNext { get; set; }

    internal bool InLru { get; set; }

    /// <summary>Second-chance bit: set on every hit, so a hit costs no list surgery.</summary>
    internal bool Referenced { get; set; }
}
