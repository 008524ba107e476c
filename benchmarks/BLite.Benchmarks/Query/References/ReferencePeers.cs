using System.Text.Json;
using BLite.Bson;
using BLite.Linq;
using Dapper;
using Microsoft.Data.Sqlite;

namespace BLite.Benchmarks.Query.References;

/// <summary>One engine doing the reference scenarios; each call returns a checksum so nothing is optimised away.</summary>
public interface IReferencePeer : IDisposable
{
    string Engine { get; }

    /// <summary>The first 100 orders in id order, each with its account resolved.</summary>
    int IncludeAccounts();

    /// <summary>Every order of every account of <paramref name="city"/>, through the City index and the index on the reference.</summary>
    int OrdersOfCity(string city);
}

public sealed class BLiteReferencePeer : IReferencePeer
{
    private readonly LinkedContext _db;

    public BLiteReferencePeer(LinkedDataset data)
    {
        _db = new LinkedContext(DocumentDbContextOptions.ForMemory());
        _db.Accounts.InsertMany(data.Accounts);
        _db.Orders.InsertMany(data.Orders);
    }

    public string Engine => "BLite";

    /// <summary>Pages read so far, from the page cache or its lock-free memo (a diagnostic: work done, whatever the load).</summary>
    internal long PageReads
    {
        get
        {
            var storage = _db.Engine.Storage;
            return storage.CacheHits + storage.CacheMisses;
        }
    }

    public int IncludeAccounts()
    {
        var checksum = 0;
        foreach (var order in _db.Orders.Query().Take(100).Include(o => o.Account))
        {
            checksum += order.Account!.Value!.City.Length;
        }

        return checksum;
    }

    public int OrdersOfCity(string city)
    {
        var accounts = _db.Accounts.Query().Where(a => a.City == city).Select(a => a.Id).ToList();
        var checksum = 0;
        foreach (var order in _db.Orders.Query().Where(o => accounts.Contains(o.Account!.Id)))
        {
            checksum += order.Lines.Count;
        }

        return checksum;
    }

    /// <summary>The first hop of <see cref="OrdersOfCity"/> alone: how many accounts the city has.</summary>
    internal int FirstHop(string city) => _db.Accounts.Query().Where(a => a.City == city).Select(a => a.Id).ToList().Count;

    /// <summary>
    /// <see cref="OrdersOfCity"/> through compiled queries (<see cref="CompiledQuery"/>): the same
    /// two queries, translated once, without the expression trees C# builds on every plain call.
    /// Not the headline figure, which stays the plain LINQ users write first.
    /// </summary>
    public int OrdersOfCityCompiled(string city)
    {
        var accounts = AccountsOfCity(_db, city).ToList();
        var checksum = 0;
        foreach (var order in OrdersOfAccounts(_db, accounts))
        {
            checksum += order.Lines.Count;
        }

        return checksum;
    }

    private static readonly Func<LinkedContext, string, IEnumerable<ObjectId>> AccountsOfCity =
        CompiledQuery.Compile((LinkedContext db, string city) => db.Accounts.Query().Where(a => a.City == city).Select(a => a.Id));

    private static readonly Func<LinkedContext, List<ObjectId>, IEnumerable<LinkedOrder>> OrdersOfAccounts =
        CompiledQuery.Compile((LinkedContext db, List<ObjectId> accounts) => db.Orders.Query().Where(o => accounts.Contains(o.Account!.Id)));

    public void Dispose() => _db.Dispose();
}

/// <summary>SQLite + JSON as its users would write it: JSON text, indexed generated columns, a join, prepared statements.</summary>
public sealed class SqliteReferencePeer : IReferencePeer
{
    private readonly SqliteConnection _connection;
    private readonly SqliteCommand _include;
    private readonly SqliteCommand _ordersOfCity;
    private readonly SqliteParameter _city;

    public SqliteReferencePeer(LinkedDataset data)
    {
        _connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = ":memory:", Pooling = false }.ToString());
        _connection.Open();
        _connection.Execute("""
            CREATE TABLE accounts (Id TEXT PRIMARY KEY NOT NULL, Data TEXT NOT NULL,
                City TEXT GENERATED ALWAYS AS (json_extract(Data, '$.City')) VIRTUAL);
            CREATE INDEX accounts_city ON accounts (City);
            CREATE TABLE orders (Id TEXT PRIMARY KEY NOT NULL, Data TEXT NOT NULL,
                AccountId TEXT GENERATED ALWAYS AS (json_extract(Data, '$.AccountId')) VIRTUAL);
            CREATE INDEX orders_account ON orders (AccountId);
            """);
        using (var transaction = _connection.BeginTransaction())
        {
            foreach (var account in data.Accounts)
            {
                _connection.Execute("INSERT INTO accounts (Id, Data) VALUES (@Id, @Data)",
                    new { Id = account.IdText, Data = JsonSerializer.Serialize(account, LinkedJsonContext.Default.Account) }, transaction);
            }

            foreach (var order in data.Orders)
            {
                _connection.Execute("INSERT INTO orders (Id, Data) VALUES (@Id, @Data)",
                    new { Id = order.IdText, Data = JsonSerializer.Serialize(order, LinkedJsonContext.Default.LinkedOrder) }, transaction);
            }

            transaction.Commit();
        }

        _include = Prepare("SELECT o.Data, a.Data FROM (SELECT Id, Data, AccountId FROM orders ORDER BY Id LIMIT 100) o LEFT JOIN accounts a ON a.Id = o.AccountId ORDER BY o.Id");
        _ordersOfCity = Prepare("SELECT o.Data FROM accounts a JOIN orders o ON o.AccountId = a.Id WHERE a.City = $city");
        _city = _ordersOfCity.Parameters.Add("$city", SqliteType.Text);
        _ordersOfCity.Prepare();
    }

    public string Engine => "SQLite";

    public int IncludeAccounts()
    {
        var checksum = 0;
        using var reader = _include.ExecuteReader();
        while (reader.Read())
        {
            var order = JsonSerializer.Deserialize(reader.GetString(0), LinkedJsonContext.Default.LinkedOrder)!;
            var account = JsonSerializer.Deserialize(reader.GetString(1), LinkedJsonContext.Default.Account)!;
            checksum += order.Lines.Count > 0 ? account.City.Length : 0;
        }

        return checksum;
    }

    public int OrdersOfCity(string city)
    {
        _city.Value = city;
        var checksum = 0;
        using var reader = _ordersOfCity.ExecuteReader();
        while (reader.Read())
        {
            checksum += JsonSerializer.Deserialize(reader.GetString(0), LinkedJsonContext.Default.LinkedOrder)!.Lines.Count;
        }

        return checksum;
    }

    public void Dispose() => _connection.Dispose();

    private SqliteCommand Prepare(string sql)
    {
        var command = _connection.CreateCommand();
        command.CommandText = sql;
        return command;
    }
}
