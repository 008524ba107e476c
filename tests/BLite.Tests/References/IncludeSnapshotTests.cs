using BLite.Bson;
using BLite.Linq;

namespace BLite.Tests.References;

/// <summary>
/// Include reads the referenced documents from the query's own view: outside a transaction the
/// snapshot held while enumerating (a commit made meanwhile by another thread is not seen, even by
/// batches resolved after it), inside a transaction the transaction's view with its own writes.
/// </summary>
public sealed class IncludeSnapshotTests : IDisposable
{
    /// <summary>More purchases than one Include batch, so later rows are resolved after the commit below.</summary>
    private const int PurchaseCount = ReferenceIncluder.BatchSize + 100;

    private readonly TempDirectory _directory = new();
    private readonly ReferenceContext _db;
    private readonly Client _renamed = new() { Name = "before", City = "Oslo" };
    private readonly Client _deleted = new() { Name = "deleted-later", City = "Rome" };

    public IncludeSnapshotTests()
    {
        _db = new ReferenceContext(_directory.File());
        _db.Clients.Insert(_renamed);
        _db.Clients.Insert(_deleted);
        using var transaction = _db.BeginTransaction();
        for (var i = 0; i < PurchaseCount; i++)
        {
            var client = i % 2 == 0 ? _renamed : _deleted;
            _db.Purchases.Insert(new Purchase { Number = $"P{i:D5}", Total = i, Client = new DocumentRef<ObjectId, Client>(client.Id) });
        }

        transaction.Commit();
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void A_commit_made_while_enumerating_is_not_seen_by_later_Include_batches()
    {
        var seen = new List<Purchase>();
        using (var rows = _db.Purchases.Query().Include(p => p.Client).GetEnumerator())
        {
            Assert.True(rows.MoveNext());
            seen.Add(rows.Current);
            RenameAndDeleteOnAnotherThread();
            while (rows.MoveNext())
            {
                seen.Add(rows.Current);
            }
        }

        AssertEveryReferenceAsOfTheQuerySnapshot(seen);
        Assert.Equal("after", _db.Clients.FindById(_renamed.Id)!.Name);
        Assert.Null(_db.Clients.FindById(_deleted.Id));
    }

    [Fact]
    public async Task A_commit_made_while_enumerating_asynchronously_is_not_seen_by_later_Include_batches()
    {
        var seen = new List<Purchase>();
        var first = true;
        await foreach (var purchase in (IAsyncEnumerable<Purchase>)_db.Purchases.Query().Include(p => p.Client))
        {
            seen.Add(purchase);
            if (first)
            {
                first = false;
                await Task.Run(RenameAndDelete);
            }
        }

        AssertEveryReferenceAsOfTheQuerySnapshot(seen);
        Assert.Equal("after", _db.Clients.FindById(_renamed.Id)!.Name);
    }

    [Fact]
    public void Include_inside_a_transaction_sees_a_document_inserted_earlier_in_it()
    {
        using var transaction = _db.BeginTransaction();
        var fresh = new Client { Name = "fresh", City = "Lima" };
        _db.Clients.Insert(fresh);
        _db.Purchases.Insert(new Purchase { Number = "NEW", Client = new DocumentRef<ObjectId, Client>(fresh.Id) });
        _renamed.Name = "renamed-in-transaction";
        _db.Clients.Update(_renamed);

        var purchases = _db.Purchases.Query().Where(p => p.Number == "NEW" || p.Number == "P00000")
            .Include(p => p.Client, MissingReference.Throw).ToList();

        Assert.Equal(2, purchases.Count);
        Assert.Equal("fresh", purchases.Single(p => p.Number == "NEW").Client!.Value!.Name);
        Assert.Equal("renamed-in-transaction", purchases.Single(p => p.Number == "P00000").Client!.Value!.Name);
        transaction.Rollback();
    }

    [Fact]
    public async Task Include_enumerated_asynchronously_inside_a_transaction_sees_a_document_inserted_earlier_in_it()
    {
        await using var transaction = await _db.BeginTransactionAsync();
        var fresh = new Client { Name = "fresh", City = "Lima" };
        await _db.Clients.InsertAsync(fresh);
        await _db.Purchases.InsertAsync(new Purchase { Number = "NEW", Client = new DocumentRef<ObjectId, Client>(fresh.Id) });

        var purchases = await _db.Purchases.Query().Where(p => p.Number == "NEW").Include(p => p.Client, MissingReference.Throw).ToListAsync();

        Assert.Equal("fresh", Assert.Single(purchases).Client!.Value!.Name);
    }

    private void RenameAndDeleteOnAnotherThread()
    {
        var writer = new Thread(RenameAndDelete);
        writer.Start();
        writer.Join();
    }

    private void RenameAndDelete()
    {
        var renamed = _db.Clients.FindById(_renamed.Id)!;
        renamed.Name = "after";
        Assert.True(_db.Clients.Update(renamed));
        Assert.True(_db.Clients.Delete(_deleted.Id));
    }

    private void AssertEveryReferenceAsOfTheQuerySnapshot(List<Purchase> seen)
    {
        Assert.Equal(PurchaseCount, seen.Count);
        foreach (var purchase in seen)
        {
            var client = purchase.Client!.Value;
            Assert.NotNull(client);
            Assert.Equal(purchase.Client.Id == _renamed.Id ? "before" : "deleted-later", client.Name);
        }
    }
}
