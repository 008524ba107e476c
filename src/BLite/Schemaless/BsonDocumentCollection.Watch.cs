using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Query;

namespace BLite;

public sealed partial class BsonDocumentCollection
{
    /// <summary>
    /// Turns this collection's change feed on (creating the collection if needed): from the next
    /// commit on, its changes are journaled for <see cref="Watch(WatchOptions?, CancellationToken)"/>.
    /// True when the setting changed.
    /// </summary>
    public bool EnableChangeFeed(bool includeBeforeImage = false) =>
        SetChangeFeed(ChangeFeedMode.On | (includeBeforeImage ? ChangeFeedMode.BeforeImages : 0));

    /// <summary>Stops journaling this collection's changes (what is journaled stays until retention trims it). True when it was on.</summary>
    public bool DisableChangeFeed() => SetChangeFeed(ChangeFeedMode.Off);

    /// <summary>The committed changes of this collection as they commit; same rules as the typed <c>Watch</c>.</summary>
    public IAsyncEnumerable<ChangeEvent<BsonValue, BsonDocument>> Watch(WatchOptions? options = null, CancellationToken cancellationToken = default) =>
        _server is not null ? throw NotOnServer(nameof(Watch)) : ChangeStream.Open(_context.Engine, Name, options, null, null, change => ChangeStream.ToBson(change, Fields), cancellationToken);

    /// <summary>
    /// Only the changes whose document matches the MongoDB-style JSON filter
    /// (<c>{ "status": "shipped" }</c>), tested on the stored bytes like <c>Find</c>.
    /// </summary>
    public IAsyncEnumerable<ChangeEvent<BsonValue, BsonDocument>> Watch(string jsonFilter, WatchOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(jsonFilter);
        RefuseOnServer();
        var filter = JsonFilterParser.Parse(jsonFilter);
        return ChangeStream.Open(_context.Engine, Name, options, filter, null, change => ChangeStream.ToBson(change, Fields), cancellationToken);
    }

    private bool SetChangeFeed(ChangeFeedMode mode, [System.Runtime.CompilerServices.CallerMemberName] string operation = "") =>
        _server is not null ? throw NotOnServer(operation) : _context.Write((Collection, mode), static (pages, s) => s.Collection.Documents.SetChangeFeed(pages, s.mode));
}
