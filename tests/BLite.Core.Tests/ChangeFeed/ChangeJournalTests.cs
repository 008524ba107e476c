using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Collections;

namespace BLite.Core.Tests.ChangeFeed;

public sealed class ChangeJournalTests
{
    private static readonly CollectionDefinition[] Orders = [new("orders", changeFeed: ChangeFeedMode.On)];

    [Fact]
    public async Task Committed_changes_are_read_back_in_commit_order_with_sequence_and_last_marker()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var orders = test.Collection("orders");
        orders.Insert(new BsonDocument { ["_id"] = 1, ["total"] = 10 });
        using (var write = test.Database.BeginWrite())
        {
            orders.Insert(write, new BsonDocument { ["_id"] = 2, ["total"] = 20 });
            orders.Update(write, new BsonDocument { ["_id"] = 1, ["total"] = 11 });
            write.Commit();
        }

        orders.Delete(2);

        var events = await ReadAsync(test.Database, ChangeFeedStart.Oldest, 4);

        Assert.Equal([ChangeOperation.Insert, ChangeOperation.Insert, ChangeOperation.Update, ChangeOperation.Delete], events.Select(e => e.Operation));
        Assert.Equal([1UL, 2UL, 2UL, 3UL], events.Select(e => e.Sequence));
        Assert.Equal([true, false, true, true], events.Select(e => e.EndsTransaction));
        Assert.Equal([1, 2, 1, 2], events.Select(e => BsonDocument.FromBytes(e.Id, test.Database.Fields)["_id"].AsInt32));
        Assert.Equal(11, BsonDocument.FromBytes(events[2].After!, test.Database.Fields)["total"].AsInt32);
        Assert.Null(events[3].After);
        Assert.Null(events[2].Before);
        Assert.All(events, e => Assert.Equal("orders", e.Collection));
    }

    [Fact]
    public async Task Rolled_back_transaction_journals_nothing_and_takes_no_sequence()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var orders = test.Collection("orders");
        using (var write = test.Database.BeginWrite())
        {
            orders.Insert(write, new BsonDocument { ["_id"] = 1 });
            write.Rollback();
        }

        orders.Insert(new BsonDocument { ["_id"] = 2 });

        var events = await ReadAsync(test.Database, ChangeFeedStart.Oldest, 1);
        Assert.Equal(1UL, events.Single().Sequence);
        Assert.Equal(2, BsonDocument.FromBytes(events[0].Id, test.Database.Fields)["_id"].AsInt32);
        Assert.Equal(new JournalBounds(1, 1), test.Database.GetJournalBounds());
    }

    [Fact]
    public void Before_images_without_the_feed_are_refused_when_declared_and_the_catalog_stays_readable()
    {
        var declared = Assert.Throws<ArgumentOutOfRangeException>(() => new CollectionDefinition("orders", changeFeed: ChangeFeedMode.BeforeImages));
        Assert.Contains("before images are kept only with the feed on", declared.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentOutOfRangeException>(() => new CollectionDefinition("orders", changeFeed: (ChangeFeedMode)4));

        using var test = new CollectionsTestDatabase(Orders);
        test.Collection("orders").Insert(new BsonDocument { ["_id"] = 1 });
        using (var write = test.Database.BeginWrite())
        {
            var set = Assert.Throws<ArgumentOutOfRangeException>(() => test.Database.GetRawCollection("orders").SetChangeFeed(write, ChangeFeedMode.BeforeImages));
            Assert.Equal("mode", set.ParamName);
            write.Commit();
        }

        test.Reopen();
        using var read = test.Database.BeginRead();
        Assert.Equal(ChangeFeedMode.On, test.Database.GetRawCollection("orders").GetChangeFeed(read));
        Assert.Equal(1, test.Collection("orders").Count());
    }

    [Fact]
    public void Collection_without_a_feed_leaves_no_journal()
    {
        using var test = new CollectionsTestDatabase();
        test.Collection("plain").Insert(new BsonDocument { ["_id"] = 1 });

        using var read = test.Database.BeginRead();
        Assert.Null(ChangeJournal.Open(read, test.Database.Catalog));
    }

    [Fact]
    public async Task Before_images_are_kept_only_when_the_collection_asks_for_them()
    {
        using var test = new CollectionsTestDatabase([new("orders", changeFeed: ChangeFeedMode.On | ChangeFeedMode.BeforeImages)]);
        var orders = test.Collection("orders");
        orders.Insert(new BsonDocument { ["_id"] = 1, ["v"] = "a" });
        orders.Update(new BsonDocument { ["_id"] = 1, ["v"] = "b" });
        orders.Delete(1);

        var events = await ReadAsync(test.Database, ChangeFeedStart.Oldest, 3);

        Assert.Null(events[0].Before);
        Assert.Equal("a", BsonDocument.FromBytes(events[1].Before!, test.Database.Fields)["v"].AsString);
        Assert.Equal("b", BsonDocument.FromBytes(events[2].Before!, test.Database.Fields)["v"].AsString);
    }

    [Fact]
    public async Task Journal_survives_reopen_and_sequences_continue()
    {
        using var test = new CollectionsTestDatabase(Orders);
        test.Collection("orders").Insert(new BsonDocument { ["_id"] = 1 });
        test.Reopen(Orders);
        test.Collection("orders").Insert(new BsonDocument { ["_id"] = 2 });

        var events = await ReadAsync(test.Database, ChangeFeedStart.Oldest, 2);

        Assert.Equal([1UL, 2UL], events.Select(e => e.Sequence));
    }

    [Fact]
    public async Task Resume_after_a_token_delivers_exactly_the_later_changes()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var orders = test.Collection("orders");
        using (var write = test.Database.BeginWrite())
        {
            orders.Insert(write, new BsonDocument { ["_id"] = 1 });
            orders.Insert(write, new BsonDocument { ["_id"] = 2 });
            write.Commit();
        }

        orders.Insert(new BsonDocument { ["_id"] = 3 });
        var all = await ReadAsync(test.Database, ChangeFeedStart.Oldest, 3);

        var afterFirst = await ReadAsync(test.Database, ChangeFeedStart.After(ChangeFeedToken.Parse(all[0].Token.ToString())), 2);
        var afterTransaction = await ReadAsync(test.Database, all[1].Token, 1);

        Assert.Equal("1:0", all[0].Token.ToString());
        Assert.Equal("1:end", all[1].Token.ToString());
        Assert.Equal([2, 3], afterFirst.Select(e => BsonDocument.FromBytes(e.Id, test.Database.Fields)["_id"].AsInt32));
        Assert.Equal(3, BsonDocument.FromBytes(afterTransaction.Single().Id, test.Database.Fields)["_id"].AsInt32);
    }

    [Fact]
    public async Task Watcher_started_now_sees_only_later_commits_and_wakes_on_commit()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var orders = test.Collection("orders");
        orders.Insert(new BsonDocument { ["_id"] = 1 });
        var start = test.Database.ResolveStart(ChangeFeedStart.Now);
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await using var watcher = test.Database.ReadChanges(start, JournalFilter.All, cancel.Token).GetAsyncEnumerator(cancel.Token);
        var next = watcher.MoveNextAsync();

        orders.Insert(new BsonDocument { ["_id"] = 2 });

        Assert.True(await next);
        Assert.Equal(2, BsonDocument.FromBytes(watcher.Current.Id, test.Database.Fields)["_id"].AsInt32);
        Assert.Equal(2UL, watcher.Current.Sequence);
    }

    [Fact]
    public void Retention_by_size_trims_whole_transactions_and_expires_older_tokens()
    {
        var options = new StorageOptions { Durability = Durability.Normal, ChangeFeedRetention = new ChangeFeedRetention { MaxBytes = 4096 } };
        using var database = DocumentDatabase.OpenInMemory(options, Orders);
        var orders = database.GetCollection("orders");
        for (var i = 0; i < 50; i++)
        {
            orders.Insert(new BsonDocument { ["_id"] = i, ["padding"] = new string('x', 200) });
        }

        var first = ChangeFeedToken.Parse("1:end");
        Assert.Equal(first, database.ResolveStart(first));

        database.Checkpoint();

        var bounds = database.GetJournalBounds();
        Assert.Equal(50UL, bounds.LastSequence);
        Assert.True(bounds.FirstRetained > 2, $"the journal still starts at {bounds.FirstRetained}");
        var expired = Assert.Throws<BLiteChangeFeedExpiredException>(() => database.ResolveStart(first));
        Assert.Equal(bounds.FirstRetained, expired.OldestAvailableSequence);
        Assert.Contains("4,096 bytes", expired.Message);
        Assert.Equal(bounds.Oldest, database.ResolveStart(ChangeFeedToken.AfterTransaction(bounds.FirstRetained - 1)));
        CollectionsTestDatabase.AssertValid(database);
    }

    [Fact]
    public void Retention_by_age_empties_the_journal_but_sequences_never_restart()
    {
        var options = new StorageOptions { Durability = Durability.Normal, ChangeFeedRetention = new ChangeFeedRetention { MaxAge = TimeSpan.FromTicks(1) } };
        using var database = DocumentDatabase.OpenInMemory(options, Orders);
        var orders = database.GetCollection("orders");
        orders.Insert(new BsonDocument { ["_id"] = 1 });
        orders.Insert(new BsonDocument { ["_id"] = 2 });

        database.Checkpoint();
        orders.Insert(new BsonDocument { ["_id"] = 3 });

        Assert.Equal(new JournalBounds(3, 3), database.GetJournalBounds());
        Assert.Throws<BLiteChangeFeedExpiredException>(() => database.ResolveStart(ChangeFeedToken.Parse("1:end")));
    }

    [Fact]
    public void Token_ahead_of_the_journal_is_refused()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var error = Assert.Throws<BLiteException>(() => test.Database.ResolveStart(ChangeFeedToken.Parse("7:0")));
        Assert.Contains("ahead of the change journal", error.Message);
    }

    [Theory]
    [InlineData("")]
    [InlineData("7")]
    [InlineData("0:0")]
    [InlineData("x:1")]
    [InlineData("3:-1")]
    [InlineData("3:4294967295")]
    public void Malformed_token_text_is_refused_naming_it(string text)
    {
        var error = Assert.Throws<BLiteException>(() => ChangeFeedToken.Parse(text));
        Assert.Contains($"'{text}'", error.Message);
    }

    internal static async Task<List<JournalEvent>> ReadAsync(DocumentDatabase database, ChangeFeedStart start, int count, JournalFilter? filter = null)
    {
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var events = new List<JournalEvent>();
        await foreach (var change in database.ReadChanges(database.ResolveStart(start), filter ?? JournalFilter.All, cancel.Token))
        {
            events.Add(change);
            if (events.Count == count)
            {
                break;
            }
        }

        return events;
    }
}
