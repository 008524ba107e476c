namespace BLite.Samples.QuickStart;

/// <summary>The steps of the quick start, each printing what it does and what came back.</summary>
internal static class Tour
{
    public static void Run(string path)
    {
        Console.WriteLine($"BLite quick start: {path}");
        ObjectId firstId;

        using (var db = new ShopContext(path))
        {
            firstId = InsertInTransaction(db);
            QueryThroughIndex(db);
            QueryByScan(db);
            UpdateOne(db);
            DeleteMany(db);
            RefuseDuplicate(db);
            UseSchemaless(db);
        }

        Reopen(path, firstId);
    }

    private static ObjectId InsertInTransaction(ShopContext db)
    {
        Step("Insert four orders in one transaction");
        var orders = SampleData.Orders();
        using (var tx = db.BeginTransaction())
        {
            foreach (var order in orders)
            {
                db.Orders.Insert(order);
            }

            tx.Commit();
        }

        foreach (var order in orders)
        {
            Show(order);
        }

        Say($"committed; the ids were assigned on insert, e.g. {orders[0].Id}");
        return orders[0].Id;
    }

    private static void QueryThroughIndex(ShopContext db)
    {
        Step("Find shipped orders (uses the index on Status)");
        var shipped = db.Orders.Query().Where(o => o.Status == "shipped");
        ShowPlan(shipped.Explain());
        foreach (var order in shipped)
        {
            Show(order);
        }
    }

    private static void QueryByScan(ShopContext db)
    {
        Step("Find orders with a TEA-01 line, largest first (no index: a scan)");
        var withTea = db.Orders.Query()
            .Where(o => o.Lines.Any(l => l.Sku == "TEA-01"))
            .OrderByDescending(o => o.Total);
        ShowPlan(withTea.Explain());
        foreach (var order in withTea)
        {
            Show(order);
        }

        var londoners = db.Orders.Query().Where(o => o.Customer.City == "London").Select(o => o.Number).ToList();
        Say($"orders from London: {string.Join(", ", londoners)}");
    }

    private static void UpdateOne(ShopContext db)
    {
        Step("Update: A-1002 has shipped");
        var order = db.Orders.FindOne(o => o.Number == "A-1002")!;
        order.Status = "shipped";
        order.Tags.Add("late");
        db.Orders.Update(order);
        Show(db.Orders.FindById(order.Id)!);
        Say($"shipped orders now: {db.Orders.Count(o => o.Status == "shipped")}");
    }

    private static void DeleteMany(ShopContext db)
    {
        Step("Delete cancelled orders");
        var removed = db.Orders.DeleteMany(o => o.Status == "cancelled");
        Say($"deleted {removed}; {db.Orders.Count()} orders left");
    }

    private static void RefuseDuplicate(ShopContext db)
    {
        Step("A unique index refuses a second A-1001");
        var copy = SampleData.Orders()[0];
        try
        {
            db.Orders.Insert(copy);
            throw new InvalidOperationException("The duplicate was accepted.");
        }
        catch (BLiteUniqueConstraintException e)
        {
            Say("refused: " + e.Message);
        }

        Say($"still {db.Orders.Count()} orders");
    }

    private static void UseSchemaless(ShopContext db)
    {
        Step("Schemaless: a collection of JSON-like documents");
        var events = db.Database.GetCollection("events");
        events.EnsureIndex("by_kind", "kind");
        events.Insert(BsonDocument.Parse("""{ "kind": "login",  "user": "ada",   "at": 1 }"""));
        events.Insert(BsonDocument.Parse("""{ "kind": "error",  "user": "alan",  "code": 500 }"""));
        events.Insert(BsonDocument.Parse("""{ "kind": "error",  "user": "grace", "code": 404 }"""));
        const string filter = """{ "kind": "error", "code": { "$gte": 500 } }""";
        Say("filter: " + filter);
        ShowPlan(events.Explain(filter));
        foreach (var e in events.Find(filter))
        {
            Say("  " + e.ToJson());
        }
    }

    private static void Reopen(string path, ObjectId firstId)
    {
        Step("Close, reopen and read back");
        using var db = new ShopContext(path);
        var first = db.Orders.FindById(firstId)!;
        Say($"{db.Orders.Count()} orders and {db.Database.GetCollection("events").Count()} events survived the reopen");
        Show(first);
        Say($"  first line: {first.Lines[0].Quantity} x {first.Lines[0].Sku} at {first.Lines[0].UnitPrice}, placed {first.PlacedAt:u}");
    }

    private static int _step;

    private static void Step(string title)
    {
        Console.WriteLine();
        Console.WriteLine($"{++_step}. {title}");
    }

    private static void Say(string text) => Console.WriteLine("   " + text);

    private static void ShowPlan(string plan)
    {
        Say("plan:");
        foreach (var line in plan.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            Say("  | " + line);
        }
    }

    private static void Show(Order o) =>
        Say($"{o.Number}  {o.Customer.Name,-13} {o.Status,-9} {o.Total,7:0.00}  {o.Lines.Count} line(s)  [{string.Join(", ", o.Tags)}]");
}
