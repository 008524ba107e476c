using BLite.Bson;
using BLite.Core.Storage;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// Reads the change journal of a database another process may hold open for writing, as the
/// <c>blite watch</c> command and the cross-process kill test do. Commits in another process
/// cannot wake this one, so a caller polls: each read opens the database read-only (no lock,
/// nothing written), takes what the journal holds after a token, and closes. A read that meets a
/// checkpoint of the writer (the read-only snapshot asks for a fresh open) returns nothing, and
/// the next poll opens afresh; a question asked once (where to start, whether the collection has
/// a feed) opens afresh at once.
/// </summary>
internal sealed class ChangeFeedPoller
{
    private readonly string _path;
    private readonly BLiteEncryption? _encryption;

    /// <param name="encryption">The key of an encrypted database; null for a plain one.</param>
    public ChangeFeedPoller(string path, BLiteEncryption? encryption = null)
    {
        _path = path;
        _encryption = encryption;
    }

    // A writer that checkpoints without pause could meet every attempt; it would have to finish a
    // checkpoint inside each short read, so this many in a row means something else is wrong.
    private const int MaxFreshOpens = 100;

    /// <summary>Called with each database this poller opens (tests checkpoint the writer under it).</summary>
    internal Action<DocumentDatabase>? AfterOpen { get; init; }

    /// <summary>The position <paramref name="start"/> means now; a trimmed token throws <see cref="BLiteChangeFeedExpiredException"/>.</summary>
    public ChangeFeedToken Resolve(ChangeFeedStart start) => WithFreshView(database => database.ResolveStart(start));

    /// <summary>
    /// Up to <paramref name="max"/> changes after <paramref name="after"/>, in commit order, and the
    /// field names to decode them with (ids never change, so the newest dictionary reads every
    /// older document). Empty when there is nothing new or the writer checkpointed meanwhile.
    /// </summary>
    public (List<JournalEvent> Changes, BsonFieldDictionary Fields) Read(ChangeFeedToken after, int max)
    {
        var changes = new List<JournalEvent>();
        try
        {
            using var database = OpenReadOnly();
            AfterOpen?.Invoke(database);
            var position = database.ResolveStart(ChangeFeedStart.After(after));
            using var read = database.BeginRead();
            ChangeJournal.Read(read, ChangeJournal.Open(read, database.Catalog), position, max, changes, _path);
            return (changes, database.Fields);
        }
        catch (SharedSnapshotChangedException)
        {
            return ([], new BsonFieldDictionary());
        }
    }

    /// <summary>Whether the collection has a change feed, as the database is now.</summary>
    public bool HasChangeFeed(string collection) => WithFreshView(database =>
    {
        using var read = database.BeginRead();
        return database.GetRawCollection(collection).GetChangeFeed(read) != ChangeFeedMode.Off;
    });

    private T WithFreshView<T>(Func<DocumentDatabase, T> question)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                using var database = OpenReadOnly();
                AfterOpen?.Invoke(database);
                return question(database);
            }
            catch (SharedSnapshotChangedException) when (attempt < MaxFreshOpens)
            {
                // The writer checkpointed under this view: the next open sees the new state.
            }
        }
    }

    private DocumentDatabase OpenReadOnly() => DocumentDatabase.Open(_path, new StorageOptions { ReadOnly = true, Encryption = _encryption });
}
