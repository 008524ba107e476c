using BLite.Bson;
using BLite.Linq;
using BLite.Tests.References;

namespace BLite.Tests.Linq;

/// <summary>
/// A compiled query returns exactly what the same plain LINQ query returns, for every argument,
/// on every context it is called with, and follows index changes; what it cannot keep as one
/// translation is refused when it is compiled.
/// </summary>
public sealed class CompiledQueryTests : IDisposable
{
    private static readonly string[] Cities = ["Oslo", "Rome", "Lima", "Kyiv", "Nara"];

    private static readonly Func<ReferenceContext, string, IEnumerable<ObjectId>> ClientsOfCity =
        CompiledQuery.Compile((ReferenceContext db, string city) => db.Clients.Query().Where(c => c.City == city).Select(c => c.Id));

    private static readonly Func<ReferenceContext, List<ObjectId>, IEnumerable<Purchase>> PurchasesOfClients =
        CompiledQuery.Compile((ReferenceContext db, List<ObjectId> clients) => db.Purchases.Query().Where(p => clients.Contains(p.Client!.Id)));

    private readonly TempDirectory _directory = new();
    private readonly ReferenceContext _db;

    public CompiledQueryTests()
    {
        _db = Filled(_directory.File(), seed: 3);
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    private static ReferenceContext Filled(string path, int seed)
    {
        var db = new ReferenceContext(path);
        var random = new Random(seed);
        var clients = new List<Client>();
        for (var i = 0; i < 40; i++)
        {
            // No client lives in Nara: its first hop is empty.
            var client = new Client { Name = $"client-{i}", City = Cities[random.Next(Cities.Length - 1)] };
            db.Clients.Insert(client);
            clients.Add(client);
        }

        var purchases = Enumerable.Range(0, 400).Select(i => new Purchase
        {
            Number = $"P{i:D4}",
            Total = random.Next(1, 500),
            Client = random.Next(15) == 0 ? null : new DocumentRef<ObjectId, Client>(clients[random.Next(clients.Count)].Id),
        });
        db.Purchases.InsertMany(purchases.OrderBy(_ => random.Next()).ToList());
        return db;
    }

    [Fact]
    public void The_two_hop_query_compiled_equals_the_plain_query_for_every_city()
    {
        var rows = 0;
        foreach (var city in Cities)
        {
            var plainClients = _db.Clients.Query().Where(c => c.City == city).Select(c => c.Id).ToList();
            var compiledClients = ClientsOfCity(_db, city).ToList();
            Assert.Equal(plainClients, compiledClients);

            var plain = _db.Purchases.Query().Where(p => plainClients.Contains(p.Client!.Id)).Select(p => p.Number).ToList();
            var compiled = PurchasesOfClients(_db, compiledClients).Select(p => p.Number).ToList();
            Assert.Equal(plain, compiled);
            Assert.Equal(city == "Nara", compiled.Count == 0);
            rows += compiled.Count;
        }

        Assert.True(rows > 300, $"only {rows} rows over every city");
    }

    [Fact]
    public void Parameters_in_filters_order_paging_projections_and_computed_values_match_the_plain_query()
    {
        var byTotal = CompiledQuery.Compile((ReferenceContext db, decimal min, int skip, int take) =>
            db.Purchases.Query().Where(p => p.Total >= min).OrderByDescending(p => p.Total).ThenBy(p => p.Number).Skip(skip).Take(take)
                .Select(p => new { p.Number, Double = p.Total * 2 }));
        var byName = CompiledQuery.Compile((ReferenceContext db, int n) => db.Clients.Query().Where(c => c.Name == "client-" + n).Select(c => c.City));
        var count = CompiledQuery.Compile((ReferenceContext db, string city) => db.Clients.Query().Count(c => c.City == city));
        var any = CompiledQuery.Compile((ReferenceContext db, decimal above) => db.Purchases.Query().Any(p => p.Total > above));
        var first = CompiledQuery.Compile((ReferenceContext db, string city) => db.Clients.Query().Where(c => c.City == city).OrderBy(c => c.Name).FirstOrDefault());

        foreach (var (min, skip, take) in new[] { (0m, 0, 10), (250m, 5, 7), (499m, 0, 50), (600m, 0, 5), (100m, 1000, 3) })
        {
            var plain = _db.Purchases.Query().Where(p => p.Total >= min).OrderByDescending(p => p.Total).ThenBy(p => p.Number).Skip(skip).Take(take)
                .Select(p => new { p.Number, Double = p.Total * 2 }).ToList();
            Assert.Equal(plain, byTotal(_db, min, skip, take).ToList());
        }

        for (var n = 0; n < 42; n++)
        {
            Assert.Equal(_db.Clients.Query().Where(c => c.Name == "client-" + n).Select(c => c.City).ToList(), byName(_db, n).ToList());
        }

        foreach (var city in Cities)
        {
            Assert.Equal(_db.Clients.Query().Count(c => c.City == city), count(_db, city));
            Assert.Equal(_db.Clients.Query().Where(c => c.City == city).OrderBy(c => c.Name).FirstOrDefault()?.Id, first(_db, city)?.Id);
        }

        var countBetween = CompiledQuery.Compile((ReferenceContext db, decimal low, decimal high, string prefix) =>
            db.Purchases.Query().Count(p => p.Total >= low && p.Total < high && p.Number.StartsWith(prefix)));
        foreach (var (low, high, prefix) in new[] { (0m, 100m, "P0"), (100m, 400m, "P01"), (450m, 451m, "P"), (10m, 5m, "P") })
        {
            Assert.Equal(_db.Purchases.Query().Count(p => p.Total >= low && p.Total < high && p.Number.StartsWith(prefix)), countBetween(_db, low, high, prefix));
        }

        Assert.True(countBetween(_db, 0m, 1000m, "P0") > 50);
        Assert.True(any(_db, 10m));
        Assert.False(any(_db, 10_000m));
        Assert.Equal(0, count(_db, "Nara"));
    }

    [Fact]
    public void One_compiled_query_serves_several_contexts_each_with_its_own_data()
    {
        using var otherDirectory = new TempDirectory();
        using var other = Filled(otherDirectory.File(), seed: 99);
        foreach (var city in Cities)
        {
            Assert.Equal(_db.Clients.Query().Where(c => c.City == city).Select(c => c.Id).ToList(), ClientsOfCity(_db, city).ToList());
            Assert.Equal(other.Clients.Query().Where(c => c.City == city).Select(c => c.Id).ToList(), ClientsOfCity(other, city).ToList());
        }

        Assert.NotEqual(ClientsOfCity(_db, "Oslo").ToList(), ClientsOfCity(other, "Oslo").ToList());
    }

    [Fact]
    public void Creating_and_dropping_an_index_replans_the_compiled_query_and_keeps_its_results()
    {
        var byNumber = CompiledQuery.Compile((ReferenceContext db, string number) => db.Purchases.Query().Where(p => p.Number == number).Select(p => p.Total));
        var raw = _db.Database.GetCollection(_db.Purchases.Name);
        var expected = _db.Purchases.Query().Where(p => p.Number == "P0123").Select(p => p.Total).Single();
        Assert.Equal(expected, byNumber(_db, "P0123").Single());
        var misses = _db.Purchases.Plans.Misses;
        Assert.Equal(expected, byNumber(_db, "P0123").Single());
        Assert.Equal(misses, _db.Purchases.Plans.Misses);

        for (var round = 0; round < 4; round++)
        {
            var creating = round % 2 == 0;
            Assert.True(creating ? raw.EnsureIndex("by_number", "Number") : raw.DropIndex("by_number"));
            misses = _db.Purchases.Plans.Misses;
            Assert.Equal(expected, byNumber(_db, "P0123").Single());
            Assert.Empty(byNumber(_db, "P9999"));
            Assert.Equal(misses + 1, _db.Purchases.Plans.Misses);
        }
    }

    [Fact]
    public void Inside_a_transaction_a_compiled_query_sees_its_writes()
    {
        using var transaction = _db.BeginTransaction();
        var client = new Client { Name = "newcomer", City = "Nara" };
        _db.Clients.Insert(client);
        Assert.Equal([client.Id], ClientsOfCity(_db, "Nara").ToList());
        transaction.Rollback();
        Assert.Empty(ClientsOfCity(_db, "Nara"));
    }

    [Fact]
    public void A_compiled_sequence_runs_when_enumerated_each_time_as_a_plain_query_does()
    {
        using var transaction = _db.BeginTransaction();
        var compiled = ClientsOfCity(_db, "Nara");
        var plain = _db.Clients.Query().Where(c => c.City == "Nara").Select(c => c.Id);
        var client = new Client { Name = "late", City = "Nara" };
        _db.Clients.Insert(client);
        Assert.Equal([client.Id], plain.ToList());
        Assert.Equal([client.Id], compiled.ToList());
        _db.Clients.Delete(client.Id);
        Assert.Empty(compiled);
        transaction.Commit();
    }

    [Fact]
    public void A_value_the_lambda_captures_is_read_when_the_query_is_compiled()
    {
        var city = "Oslo";
        var ofCapturedCity = CompiledQuery.Compile((ReferenceContext db) => db.Clients.Query().Where(c => c.City == city).Select(c => c.Id));
        city = "Rome";
        var oslo = _db.Clients.Query().Where(c => c.City == "Oslo").Select(c => c.Id).ToList();
        Assert.NotEmpty(oslo);
        Assert.Equal(oslo, ofCapturedCity(_db).ToList());
        Assert.Equal("Rome", city);
    }

    [Fact]
    public void Shapes_a_compiled_query_cannot_keep_are_refused_when_compiling()
    {
        var flag = Assert.Throws<NotSupportedException>(() =>
            CompiledQuery.Compile((ReferenceContext db, bool all) => db.Clients.Query().Where(c => all || c.City == "Oslo")));
        Assert.Contains("bool", flag.Message, StringComparison.Ordinal);

        var noSource = Assert.Throws<NotSupportedException>(() =>
            CompiledQuery.Compile((ReferenceContext db, string city) => db.Clients.FindAll().Where(c => c.City == city).AsQueryable()));
        Assert.Contains("LINQ operators over a BLite query", noSource.Message, StringComparison.Ordinal);

        var sourceReadsParameter = Assert.Throws<NotSupportedException>(() =>
            CompiledQuery.Compile((ReferenceContext db, bool clients) => (clients ? db.Clients.Query() : db.Clients.Query().Take(1)).Where(c => c.City == "Oslo")));
        Assert.Contains("reads a parameter", sourceReadsParameter.Message, StringComparison.Ordinal);

        var notBLite = CompiledQuery.Compile((ReferenceContext db, string city) => db.Clients.FindAll().ToList().AsQueryable().Where(c => c.City == city));
        var run = Assert.Throws<NotSupportedException>(() => notBLite(_db, "Oslo").ToList());
        Assert.Contains("is not a BLite query", run.Message, StringComparison.Ordinal);
    }
}
