using BLite.Bson;
using BLite.Linq;

namespace BLite.Tests.References;

/// <summary>
/// The second hop of a two-hop query (<c>ids.Contains(p.Client.Id)</c> through the index on the
/// reference) runs as an index join: primary keys gathered from the index, sorted, documents read
/// in <c>_id</c> order. Its results and their order must equal LINQ-to-Objects over the
/// collection in <c>_id</c> order, whatever the id list holds.
/// </summary>
public sealed class TwoHopJoinTests : IDisposable
{
    private static readonly string[] Cities = ["Oslo", "Rome", "Lima", "Kyiv", "Nara"];

    private readonly TempDirectory _directory = new();
    private readonly ReferenceContext _db;
    private readonly List<Client> _clients = [];
    private readonly ObjectId _deletedClient;

    public TwoHopJoinTests()
    {
        _db = new ReferenceContext(_directory.File());
        var random = new Random(16);
        for (var i = 0; i < 60; i++)
        {
            // No client lives in Nara: its first hop is empty.
            var client = new Client { Name = $"client-{i}", City = Cities[random.Next(Cities.Length - 1)] };
            _db.Clients.Insert(client);
            _clients.Add(client);
        }

        var neverStored = ObjectId.NewObjectId();
        var purchases = new List<Purchase>();
        for (var i = 0; i < 700; i++)
        {
            var pick = random.Next(20);
            var client = pick switch
            {
                0 => null,
                1 => new DocumentRef<ObjectId, Client>(neverStored),
                _ => new DocumentRef<ObjectId, Client>(_clients[random.Next(_clients.Count)].Id),
            };
            purchases.Add(new Purchase { Number = $"P{i:D4}", Total = random.Next(1, 500), Client = client });
        }

        // Shuffled before inserting, so index order, insertion order and _id order all differ.
        _db.Purchases.InsertMany(purchases.OrderBy(_ => random.Next()).ToList());
        _deletedClient = _clients[7].Id;
        Assert.True(_db.Clients.Delete(_deletedClient));
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Orders_of_the_clients_of_each_city_equal_linq_to_objects_in_id_order()
    {
        var all = AllPurchasesInIdOrder();
        var rows = 0;
        foreach (var city in Cities)
        {
            var clientIds = _db.Clients.Query().Where(c => c.City == city).Select(c => c.Id).ToList();
            var expected = Numbers(all.Where(p => p.Client is not null && clientIds.Contains(p.Client.Id)));
            var actual = _db.Purchases.Query().Where(p => clientIds.Contains(p.Client!.Id)).Select(p => p.Number).ToList();

            Assert.Equal(expected, actual);
            Assert.Equal(expected.Count, _db.Purchases.Query().Count(p => clientIds.Contains(p.Client!.Id)));
            rows += actual.Count;
        }

        Assert.True(rows > 500, $"only {rows} rows over every city");
    }

    [Fact]
    public void Dangling_ids_duplicates_and_ids_nobody_refers_to_change_nothing()
    {
        var all = AllPurchasesInIdOrder();
        var rome = _db.Clients.Query().Where(c => c.City == "Rome").Select(c => c.Id).ToList();
        var dangling = all.Where(p => p.Client is not null && _clients.All(c => c.Id != p.Client.Id || c.Id == _deletedClient))
            .Select(p => p.Client!.Id).Distinct().ToList();
        Assert.Equal(2, dangling.Count);
        List<ObjectId> ids = [.. rome, .. rome, .. dangling, ObjectId.NewObjectId(), rome[0]];

        var expected = Numbers(all.Where(p => p.Client is not null && ids.Contains(p.Client.Id)));
        var actual = _db.Purchases.Query().Where(p => ids.Contains(p.Client!.Id)).Select(p => p.Number).ToList();

        Assert.Equal(expected, actual);
        Assert.Contains(all, p => p.Client?.Id == _deletedClient && actual.Contains(p.Number));
    }

    [Fact]
    public void An_empty_first_hop_returns_nothing()
    {
        var nobody = _db.Clients.Query().Where(c => c.City == "Nara").Select(c => c.Id).ToList();

        Assert.Empty(nobody);
        Assert.Empty(_db.Purchases.Query().Where(p => nobody.Contains(p.Client!.Id)).ToList());
        Assert.Equal(0, _db.Purchases.Query().Count(p => nobody.Contains(p.Client!.Id)));
    }

    [Fact]
    public void Null_references_are_never_matched_by_a_list_of_ids()
    {
        var everyone = _clients.Select(c => c.Id).ToList();
        var all = AllPurchasesInIdOrder();

        var actual = _db.Purchases.Query().Where(p => everyone.Contains(p.Client!.Id)).Select(p => p.Number).ToList();

        Assert.Equal(Numbers(all.Where(p => p.Client is not null && everyone.Contains(p.Client.Id))), actual);
        Assert.Contains(all, p => p.Client is null && !actual.Contains(p.Number));
    }

    [Fact]
    public void Skip_take_and_a_residual_condition_apply_to_the_id_ordered_join()
    {
        var all = AllPurchasesInIdOrder();
        var ids = _db.Clients.Query().Where(c => c.City == "Lima" || c.City == "Oslo").Select(c => c.Id).ToList();
        var expected = all.Where(p => p.Client is not null && ids.Contains(p.Client.Id) && p.Total > 200).Select(p => p.Number).ToList();

        var query = _db.Purchases.Query().Where(p => ids.Contains(p.Client!.Id) && p.Total > 200);

        Assert.Equal(expected, query.Select(p => p.Number).ToList());
        Assert.Equal(expected.Skip(3).Take(5), query.Skip(3).Take(5).Select(p => p.Number).ToList());
        Assert.Equal(expected[0], query.First().Number);
    }

    [Fact]
    public void The_second_hop_is_planned_as_an_index_join_and_an_ordered_one_is_not()
    {
        var ids = _db.Clients.Query().Where(c => c.City == "Kyiv").Select(c => c.Id).ToList();

        var join = _db.Purchases.Query().Where(p => ids.Contains(p.Client!.Id)).Explain();
        var ordered = _db.Purchases.Query().Where(p => ids.Contains(p.Client!.Id)).OrderBy(p => p.Total).Explain();

        Assert.StartsWith("IXSCAN", join, StringComparison.Ordinal);
        Assert.Contains("residual: none", join, StringComparison.Ordinal);
        Assert.Contains("fetch: index join", join, StringComparison.Ordinal);
        Assert.DoesNotContain("index join", ordered, StringComparison.Ordinal);
        var expected = AllPurchasesInIdOrder().Where(p => p.Client is not null && ids.Contains(p.Client.Id))
            .OrderBy(p => p.Total).ThenBy(p => p.Id).Select(p => p.Number).ToList();
        Assert.Equal(expected, _db.Purchases.Query().Where(p => ids.Contains(p.Client!.Id)).OrderBy(p => p.Total).Select(p => p.Number).ToList());
    }

    private List<Purchase> AllPurchasesInIdOrder()
    {
        var all = _db.Purchases.FindAll().ToList();
        Assert.Equal(all.OrderBy(p => p.Id).Select(p => p.Id), all.Select(p => p.Id));
        return all;
    }

    private static List<string> Numbers(IEnumerable<Purchase> purchases) => purchases.Select(p => p.Number).ToList();
}
