namespace BLite.Bson;

/// <summary>BSON JavaScript code (type 0x0D): text that is stored and returned, never run.</summary>
public readonly record struct BsonJavaScript(string Code)
{
    public string Code { get; } = Code ?? throw new ArgumentNullException(nameof(Code));
}

/// <summary>A BSON symbol (type 0x0E, deprecated): a string MongoDB keeps apart from ordinary strings.</summary>
public readonly record struct BsonSymbol(string Name)
{
    public string Name { get; } = Name ?? throw new ArgumentNullException(nameof(Name));
}

/// <summary>A BSON DBPointer (type 0x0C, deprecated): a collection namespace and an ObjectId.</summary>
public readonly record struct BsonDbPointer(string Namespace, ObjectId Id)
{
    public string Namespace { get; } = Namespace ?? throw new ArgumentNullException(nameof(Namespace));
}
