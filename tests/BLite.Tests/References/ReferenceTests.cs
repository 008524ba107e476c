using BLite.Bson;
using BLite.Linq;

namespace BLite.Tests.References;

/// <summary>
/// DocumentRef members are stored as the referenced id; Include resolves them in batches; a
/// dangling reference reads as null or throws on request; two-hop queries run through the index
/// on the reference field.
/// </summary>
public sealed class ReferenceTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly ReferenceContext _db;
    private readonly List<Client> _clients = [];
    private readonly List<Purchase> _purchases = [];

    public ReferenceTests()
    {
        _db = new ReferenceContext(_directory.File());
        string[] cities = ["Oslo", "Rome", "Lima"];
        for (var i = 0; i < 9; i++)
        {
            var client = new Client { Name = $"client-{i}", City = cities[i % 3] };
            _db.Clients.Insert(client);
            _clients.Add(client);
        }

        for (var i = 0; i < 40; i++)
        {
            var purchase = new Purchase
            {
                Number = $"P{i:D3}",
                Total = 10 + i,
                Client = i % 10 == 9 ? null : new DocumentRef<ObjectId, Client>(_clients[i % _clients.Count].Id),
            };
            _db.Purchases.Insert(purchase);
            _purchases.Add(purchase);
        }
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void A_reference_is_stored_as_the_referenced_id_alone()
    {
        var stored = _db.Database.GetCollection(_db.Purchases.Name).FindById(_purchases[0].Id)!;
        Assert.Equal(BsonType.ObjectId, stored["Client"].Type);
        Assert.Equal(_clients[0].Id, stored["Client"].AsObjectId);
        Assert.True(_db.Database.GetCollection(_db.Purchases.Name).FindById(_purchases[9].Id)!["Client"].IsNull);

        var read = _db.Purchases.FindById(_purchases[0].Id)!;
        Assert.Equal(_clients[0].Id, read.Client!.Id);
        Assert.False(read.Client.IsLoaded);
        Assert.Null(_db.Purchases.FindById(_purchases[9].Id)!.Client);
    }

    [Fact]
    public void Reading_an_unloaded_reference_names_the_missing_Include()
    {
        var read = _db.Purchases.FindById(_purchases[0].Id)!;
        var error = Assert.Throws<InvalidOperationException>(() => read.Client!.Value);
        Assert.Contains("Include", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Include_resolves_every_reference_and_shares_one_instance_per_referenced_document()
    {
        var purchases = _db.Purchases.Query().Include(p => p.Client).OrderBy(p => p.Number).ToList();

        Assert.Equal(40, purchases.Count);
        var byId = _clients.ToDictionary(c => c.Id);
        foreach (var purchase in purchases)
        {
            if (purchase.Client is null)
            {
                continue;
            }

            Assert.True(purchase.Client.IsLoaded);
            Assert.False(purchase.Client.IsDangling);
            Assert.Equal(byId[purchase.Client.Id].Name, purchase.Client.Value!.Name);
        }

        var sameClient = purchases.Where(p => p.Client?.Id == _clients[0].Id).ToList();
        Assert.True(sameClient.Count > 1);
        Assert.All(sameClient, p => Assert.Same(sameClient[0].Client!.Value, p.Client!.Value));
    }

    [Fact]
    public void A_projection_after_Include_reads_the_referenced_document_and_equals_a_join_in_memory()
    {
        var rows = _db.Purchases.Query()
            .Where(p => p.Total >= 20)
            .Include(p => p.Client)
            .OrderBy(p => p.Total)
            .Select(p => new { p.Number, Client = p.Client == null ? null : p.Client.Value!.Name })
            .ToList();

        var expected = _purchases
            .Where(p => p.Total >= 20)
            .OrderBy(p => p.Total)
            .Select(p => new { p.Number, Client = p.Client == null ? null : _clients.Single(c => c.Id == p.Client.Id).Name })
            .ToList();
        Assert.NotEmpty(rows);
        Assert.Equal(expected, rows);
    }

    [Fact]
    public void Include_with_First_and_Take_resolves_only_the_returned_documents()
    {
        var first = _db.Purchases.Query().Include(p => p.Client).Where(p => p.Number == "P004").First();
        Assert.Equal(_clients[4].Name, first.Client!.Value!.Name);

        var page = _db.Purchases.Query().OrderBy(p => p.Number).Skip(10).Take(5).Include(p => p.Client).ToList();
        Assert.Equal(["P010", "P011", "P012", "P013", "P014"], page.Select(p => p.Number));
        Assert.All(page, p => Assert.True(p.Client!.IsLoaded));
    }

    [Fact]
    public void Deleting_a_referenced_document_is_not_blocked_and_the_reference_then_reads_as_null()
    {
        Assert.True(_db.Clients.Delete(_clients[1].Id));

        var purchases = _db.Purchases.Query().Include(p => p.Client).ToList();
        var dangling = purchases.Where(p => p.Client?.Id == _clients[1].Id).ToList();
        Assert.NotEmpty(dangling);
        Assert.All(dangling, p =>
        {
            Assert.True(p.Client!.IsLoaded);
            Assert.True(p.Client.IsDangling);
            Assert.Null(p.Client.Value);
        });
        Assert.All(purchases.Where(p => p.Client is not null && p.Client.Id != _clients[1].Id), p => Assert.NotNull(p.Client!.Value));
    }

    [Fact]
    public void A_dangling_reference_throws_on_request_naming_collection_and_id()
    {
        Assert.True(_db.Clients.Delete(_clients[2].Id));

        var error = Assert.Throws<BLiteDanglingReferenceException>(() =>
            _db.Purchases.Query().Include(p => p.Client, MissingReference.Throw).ToList());
        Assert.Equal(_db.Clients.Name, error.Collection);
        Assert.Equal(_clients[2].Id, error.Id);
        Assert.Contains(_clients[2].Id.ToString(), error.Message, StringComparison.Ordinal);

        // Purchases whose clients all exist still load with Throw.
        var fine = _db.Purchases.Query().Where(p => p.Number == "P000").Include(p => p.Client, MissingReference.Throw).Single();
        Assert.Equal(_clients[0].Name, fine.Client!.Value!.Name);
    }

    [Fact]
    public void A_reference_whose_id_type_differs_from_the_collection_is_refused_by_name()
    {
        _db.Mistyped.Insert(new MistypedPurchase { Client = new DocumentRef<int, Client>(5) });

        var error = Assert.Throws<BLiteException>(() => _db.Mistyped.Query().Include(p => p.Client).ToList());
        Assert.Contains("Int32", error.Message, StringComparison.Ordinal);
        Assert.Contains("ObjectId", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_stored_reference_of_the_wrong_BSON_type_fails_to_decode_naming_the_member()
    {
        var raw = _db.Database.GetCollection(_db.Purchases.Name);
        var id = ObjectId.NewObjectId();
        raw.Insert(new BsonDocument { ["_id"] = id, ["Number"] = "X", ["Total"] = 1m, ["Client"] = "not-an-id" });

        var error = Assert.Throws<BLite.Bson.Mapping.BsonMappingException>(() => _db.Purchases.FindById(id));
        Assert.Contains("Purchase.Client", error.Message, StringComparison.Ordinal);
        Assert.Contains("ObjectId", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Include_after_Select_is_refused()
    {
        var error = Assert.Throws<NotSupportedException>(() =>
            _db.Purchases.Query().Select(p => p).Include(p => p.Client).ToList());
        Assert.Contains("Include", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_query_on_the_reference_id_uses_the_index_on_the_reference_field()
    {
        var clientId = _clients[3].Id;
        var query = _db.Purchases.Query().Where(p => p.Client!.Id == clientId);

        Assert.StartsWith("IXSCAN", query.Explain(), StringComparison.Ordinal);
        Assert.Equal(
            _purchases.Where(p => p.Client?.Id == clientId).Select(p => p.Number).Order(),
            query.Select(p => p.Number).ToList().Order());
    }

    [Fact]
    public void Two_hops_purchases_of_the_clients_of_one_city_run_through_both_indexes()
    {
        var clientIds = _db.Clients.Query().Where(c => c.City == "Rome").Select(c => c.Id).ToList();
        var purchases = _db.Purchases.Query().Where(p => clientIds.Contains(p.Client!.Id));

        Assert.StartsWith("IXSCAN", _db.Clients.Query().Where(c => c.City == "Rome").Explain(), StringComparison.Ordinal);
        Assert.StartsWith("IXSCAN", purchases.Explain(), StringComparison.Ordinal);
        var expected = _purchases.Where(p => p.Client is not null && _clients.Single(c => c.Id == p.Client.Id).City == "Rome").Select(p => p.Number).Order().ToList();
        Assert.NotEmpty(expected);
        Assert.Equal(expected, purchases.Select(p => p.Number).ToList().Order());
    }

    [Fact]
    public void Followers_of_followers_through_a_list_of_references()
    {
        // 1 follows 2 and 3; 2 follows 4; 3 follows 4 and 5; 5 follows 1.
        int[][] follows = [[], [2, 3], [4], [4, 5], [], [1]];
        for (var id = 1; id <= 5; id++)
        {
            _db.Members.Insert(new Member { Id = id, Name = $"m{id}", Follows = follows[id].Select(f => new DocumentRef<int, Member>(f)).ToList() });
        }

        var me = _db.Members.Query().Include(m => m.Follows).Single(m => m.Id == 1);
        Assert.Equal(["m2", "m3"], me.Follows.Select(f => f.Value!.Name));

        var firstHop = me.Follows.Select(f => f.Id).ToList();
        var secondHop = _db.Members.Query().Where(m => firstHop.Contains(m.Id)).Include(m => m.Follows).ToList()
            .SelectMany(m => m.Follows.Select(f => f.Value!.Name)).Distinct().Order();
        Assert.Equal(["m4", "m5"], secondHop);

        var four = new DocumentRef<int, Member>(4);
        var followersOf4 = _db.Members.Query().Where(m => m.Follows.Contains(four));
        Assert.StartsWith("IXSCAN", followersOf4.Explain(), StringComparison.Ordinal);
        Assert.Equal(["m2", "m3"], followersOf4.Select(m => m.Name).ToList().Order());
    }
}
