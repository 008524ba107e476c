using BLite.Bson;
using BLite.Tests.Model;

namespace BLite.Tests.ChangeFeed;

public sealed class WatchTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private FeedShopContext _db;

    public WatchTests()
    {
        _db = Open();
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public async Task Typed_watch_delivers_insert_update_delete_with_ids_documents_and_before_images()
    {
        var order = Orders.Create(1);
        _db.Orders.Insert(order);
        order.Status = "shipped";
        _db.Orders.Update(order);
        _db.Orders.Delete(order.Id);

        var events = await ChangeStreams.Take(_db.Orders.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 3);

        Assert.Equal([ChangeOperation.Insert, ChangeOperation.Update, ChangeOperation.Delete], events.Select(e => e.Operation));
        Assert.All(events, e => Assert.Equal(order.Id, e.Id));
        Assert.All(events, e => Assert.Equal("orders", e.Collection));
        Assert.Equal(order.OrderNumber, events[0].Document!.OrderNumber);
        Assert.Null(events[0].Before);
        Assert.Equal("shipped", events[1].Document!.Status);
        Assert.Equal(Orders.Create(1).Status, events[1].Before!.Status);
        Assert.Null(events[2].Document);
        Assert.Equal("shipped", events[2].Before!.Status);
        Assert.Equal([1UL, 2UL, 3UL], events.Select(e => e.Sequence));
        Assert.All(events, e => Assert.True(e.IsLastInTransaction));
        Assert.All(events, e => Assert.Equal(DateTimeKind.Utc, e.CommitTime.Kind));
    }

    [Fact]
    public async Task Transaction_events_share_a_sequence_and_only_the_last_is_marked()
    {
        using (var transaction = _db.BeginTransaction())
        {
            _db.IntItems.Insert(new IntItem { Id = 1, Name = "a" });
            _db.IntItems.Insert(new IntItem { Id = 2, Name = "b" });
            _db.IntItems.Insert(new IntItem { Id = 3, Name = "c" });
            transaction.Commit();
        }

        var events = await ChangeStreams.Take(_db.IntItems.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 3);

        Assert.Equal([1, 2, 3], events.Select(e => e.Id));
        Assert.Single(events.Select(e => e.Sequence).Distinct());
        Assert.Equal([false, false, true], events.Select(e => e.IsLastInTransaction));
        Assert.Equal("c", events[2].Document!.Name);
    }

    [Fact]
    public async Task Watcher_sees_exactly_the_committed_transactions_never_a_rolled_back_or_unfinished_one()
    {
        var watcher = ChangeStreams.Take(_db.IntItems.Watch(), 1_000_000, stopAt: e => e.Id == -1);
        var expected = new List<(int Id, ulong Group, bool Last)>();
        var random = new Random(17);
        var nextId = 1;
        var rolledBack = 0;
        for (var t = 0; t < 60; t++)
        {
            var size = random.Next(1, 6);
            var commit = random.Next(3) != 0;
            using var transaction = _db.BeginTransaction();
            var ids = Enumerable.Range(nextId, size).ToList();
            nextId += size;
            foreach (var id in ids)
            {
                _db.IntItems.Insert(new IntItem { Id = id, Name = "t" + t });
            }

            if (commit)
            {
                transaction.Commit();
                expected.AddRange(ids.Select((id, i) => (id, (ulong)t, i == ids.Count - 1)));
            }
            else
            {
                transaction.Rollback();
                rolledBack++;
            }
        }

        _db.IntItems.Insert(new IntItem { Id = -1, Name = "stop" });
        var events = await watcher;

        Assert.InRange(rolledBack, 5, 55);
        Assert.Equal(expected.Select(e => e.Id).Append(-1), events.Select(e => e.Id));
        Assert.Equal(expected.Select(e => e.Last).Append(true), events.Select(e => e.IsLastInTransaction));
        var groups = events.GroupBy(e => e.Sequence).Select(g => g.Select(e => e.Document!.Name).Distinct().Single()).ToList();
        Assert.Equal(groups.Count, groups.Distinct().Count());
        Assert.True(events.Zip(events.Skip(1)).All(p => p.First.Sequence <= p.Second.Sequence));
    }

    [Fact]
    public async Task Operation_and_predicate_filters_are_applied_and_the_marker_moves_to_the_last_delivered_event()
    {
        using (var transaction = _db.BeginTransaction())
        {
            _db.Orders.Insert(Orders.Create(2)); // shipped
            _db.Orders.Insert(Orders.Create(3)); // delivered
            transaction.Commit();
        }

        var shipped = Orders.Create(6);
        _db.Orders.Insert(shipped);
        _db.Orders.Delete(shipped.Id);

        var matching = await ChangeStreams.Take(_db.Orders.Watch(o => o.Status == "shipped", new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 3);
        var deletes = await ChangeStreams.Take(_db.Orders.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest, Operations = [ChangeOperation.Delete] }), 1);

        Assert.Equal(["ORD-00002", "ORD-00006", "ORD-00006"], matching.Select(e => (e.Document ?? e.Before)!.OrderNumber));
        Assert.True(matching[0].IsLastInTransaction);
        Assert.Equal(ChangeOperation.Delete, matching[2].Operation);
        Assert.Equal(shipped.Id, deletes.Single().Id);
    }

    [Fact]
    public async Task Resume_token_continues_exactly_after_the_event_in_a_new_context()
    {
        for (var i = 1; i <= 5; i++)
        {
            _db.IntItems.Insert(new IntItem { Id = i, Name = "n" + i });
        }

        var firstTwo = await ChangeStreams.Take(_db.IntItems.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 2);
        var stored = firstTwo[^1].Token.ToString();
        _db.Dispose();
        _db = Open();
        _db.IntItems.Insert(new IntItem { Id = 6, Name = "n6" });

        var rest = await ChangeStreams.Take(_db.IntItems.Watch(new WatchOptions { ResumeAfter = ChangeFeedToken.Parse(stored) }), 4);

        Assert.Equal([3, 4, 5, 6], rest.Select(e => e.Id));
    }

    [Fact]
    public async Task Database_watch_covers_every_collection_with_a_feed_and_schemaless_collections_can_enable_one()
    {
        var notes = _db.Database.GetCollection("notes");
        Assert.True(notes.EnableChangeFeed());
        Assert.False(notes.EnableChangeFeed());
        _db.IntItems.Insert(new IntItem { Id = 1, Name = "one" });
        _db.Labels.Insert(new Label { Id = "no-feed", Text = "never journaled" });
        notes.Insert(new BsonDocument { ["_id"] = "n1", ["kind"] = "todo" });
        notes.Insert(new BsonDocument { ["_id"] = "n2", ["kind"] = "done" });

        var all = await ChangeStreams.Take(_db.Database.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 3);
        var todos = await ChangeStreams.Take(notes.Watch("{ \"kind\": \"todo\" }", new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 1);

        Assert.Equal(["IntItems", "notes", "notes"], all.Select(e => e.Collection));
        Assert.Equal(new BsonValue[] { 1, "n1", "n2" }, all.Select(e => e.Id));
        Assert.Equal("one", all[0].Document!["Name"].AsString);
        Assert.Equal("n1", todos.Single().Id.AsString);
        Assert.Throws<BLiteException>(() => _db.Labels.Watch());
    }

    [Fact]
    public async Task Hundred_watchers_each_receive_every_change_while_writers_never_wait_for_them()
    {
        var watchers = Enumerable.Range(0, 100).Select(_ => ChangeStreams.Take(_db.IntItems.Watch(), 300)).ToList();

        for (var i = 1; i <= 300; i++)
        {
            _db.IntItems.Insert(new IntItem { Id = i, Name = "x" });
        }

        var received = await Task.WhenAll(watchers);

        Assert.All(received, events => Assert.Equal(Enumerable.Range(1, 300), events.Select(e => e.Id)));
    }

    [Fact]
    public async Task Slow_watcher_that_fell_far_behind_reads_the_backlog_from_the_journal()
    {
        var stream = _db.IntItems.Watch(new WatchOptions { StartAt = ChangeFeedStart.Now });
        using (var transaction = _db.BeginTransaction())
        {
            for (var i = 1; i <= 2_000; i++)
            {
                _db.IntItems.Insert(new IntItem { Id = i, Name = new string('p', 100) });
            }

            transaction.Commit();
        }

        for (var i = 2_001; i <= 2_100; i++)
        {
            _db.IntItems.Insert(new IntItem { Id = i, Name = "late" });
        }

        var events = await ChangeStreams.Take(stream, 2_100);

        Assert.Equal(Enumerable.Range(1, 2_100), events.Select(e => e.Id));
        Assert.Equal(2_000, events.TakeWhile(e => e.Sequence == events[0].Sequence).Count());
    }

    [Fact]
    public async Task Token_trimmed_by_retention_throws_the_expired_exception_naming_the_oldest_sequence()
    {
        _db.Dispose();
        _db = Open(new ChangeFeedRetention { MaxBytes = 2_000 });
        for (var i = 1; i <= 40; i++)
        {
            _db.IntItems.Insert(new IntItem { Id = i, Name = new string('r', 100) });
        }

        var first = (await ChangeStreams.Take(_db.IntItems.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 1)).Single().Token;
        _db.Database.Checkpoint();

        var expired = Assert.Throws<BLiteChangeFeedExpiredException>(() => _db.IntItems.Watch(new WatchOptions { ResumeAfter = first }));
        var (oldest, _) = _db.Database.GetChangeFeedBounds();
        Assert.Equal(oldest.Sequence + 1, expired.OldestAvailableSequence);
        Assert.True(expired.OldestAvailableSequence > 2);
        var fromOldest = await ChangeStreams.Take(_db.IntItems.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 1);
        Assert.Equal(expired.OldestAvailableSequence, fromOldest.Single().Sequence);
    }

    [Fact]
    public void Default_token_as_resume_point_throws_an_argument_exception_naming_the_unset_token()
    {
        _db.IntItems.Insert(new IntItem { Id = 1, Name = "one" });

        var fromOptions = Assert.Throws<ArgumentException>(() => _db.IntItems.Watch(new WatchOptions { ResumeAfter = default(ChangeFeedToken) }));
        var fromStart = Assert.Throws<ArgumentException>(() => ChangeFeedStart.After(default));

        Assert.Contains("default(ChangeFeedToken)", fromOptions.Message, StringComparison.Ordinal);
        Assert.Equal("token", fromOptions.ParamName);
        Assert.Equal(fromOptions.Message, fromStart.Message);
    }

    private FeedShopContext Open(ChangeFeedRetention? retention = null) =>
        new(new DocumentDbContextOptions { Path = _directory.File(), Durability = Durability.Normal, ChangeFeedRetention = retention ?? new ChangeFeedRetention() });
}
