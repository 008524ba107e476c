using System.Net;
using System.Text.Json;
using BLite.Bson;

namespace BLite.Cli.Tests.Studio;

/// <summary>The JSON API behind the pages, read back through the engine the studio holds open.</summary>
public class StudioApiTests
{
    private static string Id(int id) => Uri.EscapeDataString($$"""{"_id": {{id}}}""");

    private static List<int> Ids(JsonElement page) =>
        page.GetProperty("documents").EnumerateArray().Select(d => BsonDocument.Parse(d.GetProperty("json").GetString()!)["_id"].AsInt32).ToList();

    [Fact]
    public async Task Keyset_pages_walk_forward_and_back_over_every_document_once()
    {
        await using var host = await StudioHost.StartAsync(orders: 120);
        var forward = new List<List<int>>();
        var page = await host.GetJson("/api/collections/orders/documents?limit=50");
        Assert.False(page.GetProperty("hasPrevious").GetBoolean());
        while (true)
        {
            forward.Add(Ids(page));
            if (!page.GetProperty("hasNext").GetBoolean())
            {
                break;
            }

            var last = page.GetProperty("documents").EnumerateArray().Last().GetProperty("key").GetString()!;
            page = await host.GetJson("/api/collections/orders/documents?limit=50&after=" + Uri.EscapeDataString(last));
        }

        var first = page.GetProperty("documents").EnumerateArray().First().GetProperty("key").GetString()!;
        var back = await host.GetJson("/api/collections/orders/documents?limit=50&before=" + Uri.EscapeDataString(first));

        Assert.Equal([50, 50, 20], forward.Select(p => p.Count));
        Assert.Equal(Enumerable.Range(1, 120), forward.SelectMany(p => p));
        Assert.Equal(Enumerable.Range(51, 50), Ids(back));
        Assert.True(back.GetProperty("hasPrevious").GetBoolean());
        Assert.True(back.GetProperty("hasNext").GetBoolean());
        Assert.Equal(120, page.GetProperty("total").GetInt64());
    }

    [Fact]
    public async Task A_page_can_start_at_an_id_and_a_bad_paging_request_is_refused()
    {
        await using var host = await StudioHost.StartAsync(orders: 120);

        var jumped = await host.GetJson("/api/collections/orders/documents?limit=10&start=" + Id(115));
        var both = await host.GetJson("/api/collections/orders/documents?after=AA%3D%3D&start=" + Id(1), HttpStatusCode.BadRequest);
        var key = await host.GetJson("/api/collections/orders/documents?after=%25%25", HttpStatusCode.BadRequest);
        var limit = await host.GetJson("/api/collections/orders/documents?limit=5000", HttpStatusCode.BadRequest);

        Assert.Equal(Enumerable.Range(115, 6), Ids(jumped));
        Assert.False(jumped.GetProperty("hasNext").GetBoolean());
        Assert.True(jumped.GetProperty("hasPrevious").GetBoolean());
        Assert.Contains("not several", both.GetProperty("error").GetString());
        Assert.Contains("paging key", key.GetProperty("error").GetString());
        Assert.Contains("limit", limit.GetProperty("error").GetString());
    }

    [Fact]
    public async Task A_query_returns_the_matching_documents_the_plan_through_the_index_and_the_time()
    {
        await using var host = await StudioHost.StartAsync(orders: 40);

        var result = await host.SendJson(HttpMethod.Post, "/api/collections/orders/query",
            new { filter = """{"status":"shipped"}""", sort = "-total", limit = 5 }, HttpStatusCode.OK);

        var expected = Enumerable.Range(1, 40).Select(TestDatabases.Order).Where(o => o["status"].AsString == "shipped")
            .OrderByDescending(o => o["total"].AsInt32).ThenBy(o => o["_id"].AsInt32).Take(5).Select(o => o["_id"].AsInt32);
        Assert.Equal(expected, Ids(result));
        Assert.Contains("by_status", result.GetProperty("plan").GetString());
        Assert.True(result.GetProperty("elapsedMs").GetDouble() >= 0);
    }

    [Theory]
    [InlineData("""{"status":""", "filter", "bad filter")]
    [InlineData("""{"total":{"$between":[1,2]}}""", "filter", "$between")]
    public async Task A_bad_filter_answers_the_parsers_message_for_the_filter_box(string filter, string field, string message)
    {
        await using var host = await StudioHost.StartAsync(orders: 3);

        var error = await host.SendJson(HttpMethod.Post, "/api/collections/orders/query", new { filter }, HttpStatusCode.BadRequest);

        Assert.Equal(field, error.GetProperty("field").GetString());
        Assert.Contains(message, error.GetProperty("error").GetString());
    }

    [Fact]
    public async Task A_bad_sort_or_limit_names_its_own_box()
    {
        await using var host = await StudioHost.StartAsync(orders: 3);

        var sort = await host.SendJson(HttpMethod.Post, "/api/collections/orders/query", new { filter = "{}", sort = "total,-" }, HttpStatusCode.BadRequest);
        var limit = await host.SendJson(HttpMethod.Post, "/api/collections/orders/query", new { filter = "{}", limit = 0 }, HttpStatusCode.BadRequest);

        Assert.Equal("sort", sort.GetProperty("field").GetString());
        Assert.Equal("limit", limit.GetProperty("field").GetString());
    }

    [Fact]
    public async Task Editing_replaces_the_document_keeping_its_types()
    {
        await using var host = await StudioHost.StartAsync(orders: 5);
        var loaded = await host.GetJson("/api/collections/orders/document?id=" + Id(3));
        var edited = BsonDocument.Parse(loaded.GetProperty("canonical").GetString()!);
        edited["status"] = "cancelled";

        await host.SendJson(HttpMethod.Put, "/api/collections/orders/documents", new { json = edited.ToJson(BsonJsonMode.Canonical) }, HttpStatusCode.OK);

        var stored = host.Server.Database.GetCollection("orders").FindById(3)!;
        var expected = TestDatabases.Order(3);
        expected["status"] = "cancelled";
        Assert.Equal(expected, stored);
    }

    [Theory]
    [InlineData("""{"_id": 2, "status": """, "not a valid document")]
    [InlineData("""{"_id": 2, "customer": {"email": "c1@example.com"}}""", "unique")]
    [InlineData("""{"status": "no id"}""", "_id")]
    public async Task A_refused_edit_answers_the_error_and_changes_nothing(string json, string message)
    {
        await using var host = await StudioHost.StartAsync(orders: 5);

        var response = await host.Client.PutAsync("/api/collections/orders/documents", System.Net.Http.Json.JsonContent.Create(new { json }));
        var body = await response.Content.ReadAsStringAsync();

        Assert.False(response.IsSuccessStatusCode, body);
        Assert.Contains(message, body, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(TestDatabases.Order(2), host.Server.Database.GetCollection("orders").FindById(2));
        Assert.Equal(TestDatabases.Order(1), host.Server.Database.GetCollection("orders").FindById(1));
        Assert.Equal(5, host.Server.Database.GetCollection("orders").Count());
    }

    [Fact]
    public async Task Insert_and_delete_go_through_to_the_database()
    {
        await using var host = await StudioHost.StartAsync(orders: 2);

        var created = await host.SendJson(HttpMethod.Post, "/api/collections/orders/documents", new { json = """{"_id": 10, "status": "new", "customer": {"email": "ten@example.com"}}""" }, HttpStatusCode.Created);
        var duplicate = await host.SendJson(HttpMethod.Post, "/api/collections/orders/documents", new { json = """{"_id": 10}""" }, HttpStatusCode.Conflict);
        await host.SendJson(HttpMethod.Delete, "/api/collections/orders/documents?id=" + Id(1), null, HttpStatusCode.OK);
        await host.SendJson(HttpMethod.Delete, "/api/collections/orders/documents?id=" + Id(1), null, HttpStatusCode.NotFound);

        var orders = host.Server.Database.GetCollection("orders");
        Assert.Equal(10, BsonDocument.Parse(created.GetProperty("id").GetString()!)["_id"].AsInt32);
        Assert.Contains("10", duplicate.GetProperty("error").GetString());
        Assert.Equal("new", orders.FindById(10)!["status"].AsString);
        Assert.Null(orders.FindById(1));
        Assert.Equal(2, orders.Count());
    }

    [Fact]
    public async Task Indexes_are_listed_created_and_dropped()
    {
        await using var host = await StudioHost.StartAsync(orders: 20);

        await host.GetJson("/api/collections/orders/indexes/by_total/progress", HttpStatusCode.NotFound);
        var created = await host.SendJson(HttpMethod.Post, "/api/collections/orders/indexes", new { name = "by_total", fields = "total", unique = false }, HttpStatusCode.Created);
        var progress = await host.GetJson("/api/collections/orders/indexes/by_total/progress");
        var listed = await host.GetJson("/api/collections/orders/indexes");
        var plan = await host.SendJson(HttpMethod.Post, "/api/collections/orders/query", new { filter = """{"total":{"$gte":90}}""" }, HttpStatusCode.OK);
        var refused = await host.SendJson(HttpMethod.Post, "/api/collections/orders/indexes", new { name = "by_tag", fields = "tags", unique = true }, HttpStatusCode.Conflict);
        await host.SendJson(HttpMethod.Delete, "/api/collections/orders/indexes/by_total", null, HttpStatusCode.OK);

        Assert.Equal(20, created.GetProperty("documents").GetInt64());
        Assert.Equal(20, progress.GetProperty("read").GetInt64());
        Assert.Equal(20, progress.GetProperty("total").GetInt64());
        Assert.True(progress.GetProperty("finished").GetBoolean());
        Assert.Equal(["_id", "by_status", "by_email", "by_total"], listed.EnumerateArray().Select(i => i.GetProperty("name").GetString()));
        Assert.Contains("by_total", plan.GetProperty("plan").GetString());
        Assert.NotEmpty(refused.GetProperty("error").GetString()!);
        Assert.Equal(["by_status", "by_email"], host.Server.Database.GetCollection("orders").GetIndexes().Select(i => i.Name));
    }

    [Fact]
    public async Task Export_then_import_round_trips_a_collection_in_both_formats()
    {
        await using var host = await StudioHost.StartAsync(orders: 30);
        foreach (var format in new[] { "jsonl", "bson" })
        {
            var exported = await host.Client.GetByteArrayAsync($"/api/collections/orders/export?format={format}");
            var imported = await host.Client.PostAsync($"/api/collections/copy_{format}/import?format={format}", new ByteArrayContent(exported));
            var count = await StudioHost.Read(imported, HttpStatusCode.OK);

            Assert.Equal(30, count.GetProperty("imported").GetInt64());
            var copy = host.Server.Database.GetCollection("copy_" + format).FindAll().ToList();
            var original = host.Server.Database.GetCollection("orders").FindAll().ToList();
            Assert.Equal(original.Select(d => d["_id"]), copy.Select(d => d["_id"]));
            Assert.Equal(original[7]["status"], copy[7]["status"]);
        }

        Assert.Equal(TestDatabases.Order(8), host.Server.Database.GetCollection("copy_jsonl").FindById(8));
    }

    [Fact]
    public async Task A_bad_import_line_imports_nothing_and_names_the_line()
    {
        await using var host = await StudioHost.StartAsync(orders: 3);

        var response = await host.Client.PostAsync("/api/collections/orders/import?format=jsonl", new StringContent("{\"_id\": 100}\n{\"_id\": 101,\n"));
        var error = await StudioHost.Read(response, HttpStatusCode.BadRequest);

        Assert.Contains("line 2", error.GetProperty("error").GetString());
        Assert.Null(host.Server.Database.GetCollection("orders").FindById(100));
    }

    [Fact]
    public async Task The_overview_and_check_report_the_database()
    {
        await using var host = await StudioHost.StartAsync(orders: 10);

        var overview = await host.GetJson("/api/overview");
        var check = await host.SendJson(HttpMethod.Post, "/api/check", null, HttpStatusCode.OK);
        var collections = await host.GetJson("/api/collections");
        var size = await host.GetJson("/api/collections/orders/size");

        Assert.Equal(new FileInfo(host.Server.Options.DatabasePath).Length, overview.GetProperty("fileBytes").GetInt64());
        Assert.True(overview.GetProperty("pageCount").GetInt64() > 0);
        Assert.True(check.GetProperty("valid").GetBoolean());
        Assert.Equal(0, check.GetProperty("issues").GetArrayLength());
        Assert.Equal(["customers", "orders"], collections.EnumerateArray().Select(c => c.GetProperty("name").GetString()).Order());
        Assert.True(size.GetProperty("dataBytes").GetInt64() > 10 * 50);
        var missing = await host.GetJson("/api/collections/nope/documents", HttpStatusCode.NotFound);
        Assert.Contains("does not exist", missing.GetProperty("error").GetString());
    }
}
