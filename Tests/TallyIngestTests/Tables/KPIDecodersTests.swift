import Foundation
import Testing
import TallyCore
@testable import TallyIngest

@Suite("Decoding the swipes/ and subscriptions/ tables")
struct KPIDecodersTests {
    @Test("swipes: self-swipes and unknown actions are rejected with a reason")
    func swipes() throws {
        let csv = """
            id,from_user_id,to_user_id,action,timestamp
            s1,u1,u2,super_like,2026-10-03T21:15:00-03:00
            s2,u1,u1,like,2026-10-03T21:15:00-03:00
            s3,u1,u2,rewind,2026-10-03T21:15:00-03:00
            s4,u1,u2,like,2026-10-03T21:15:00

            """
        let rows = try decodeAll(.swipes, csv) { f throws(FieldError) in
            let s = try KPIDecoders.swipe(f)
            return (String(decoding: s.id, as: UTF8.self), s.action)
        }
        #expect(try rows[0].result.get() == ("s1", .superLike))
        #expect(rows[1].result.failureReason?.contains("fromUserId and toUserId are both") == true)
        #expect(rows[2].result.failureReason?.contains("action 'rewind' is not one of like, pass, super_like, report") == true)
        #expect(rows[3].result.failureReason?.contains("no time zone offset") == true)
    }

    @Test("events: unknown names and paying events without a product are rejected")
    func events() throws {
        let csv = """
            id,app,userId,event,productId,context,timestamp
            e1,FisioFlow,u1,paywall_shown,,patientLimitReached,2026-10-03T12:00:00Z
            e2,FisioFlow,u1,billing_issue,x,,2026-10-03T12:00:00Z
            e3,FisioFlow,u1,subscribed,,,2026-10-03T12:00:00Z
            e4,FisioFlow,u1,upgraded,fisioflow.gold.monthly,,2026-10-03T12:00:00Z

            """
        let rows = try decodeAll(.events, csv) { f throws(FieldError) in try KPIDecoders.event(f) }
        #expect(try rows[0].result.get().event.context == "patientLimitReached")
        #expect(rows[1].result.failureReason?.contains("event 'billing_issue' is not one of") == true)
        #expect(rows[2].result.failureReason?.contains("productId is empty") == true)
        #expect(try rows[3].result.get().event.productId == "fisioflow.gold.monthly")
    }

    @Test("products and connections")
    func productsAndConnections() throws {
        let products = try decodeAll(.products, "productId,app,plan,period,price,currency\np,FisioFlow,gold,yearly,1970.00,BRL\nq,A,b,weekly,1,BRL\n") {
            f throws(FieldError) in try KPIDecoders.product(f)
        }
        #expect(try products[0].result.get().entry.monthlyPrice == 16_417)
        #expect(products[1].result.failureReason?.contains("period 'weekly'") == true)
        let connections = try decodeAll(.connections, "userId,partnerId,connectedAt,disconnectedAt\na,b,2026-10-03T12:00:00Z,2026-10-01T12:00:00Z\n") {
            f throws(FieldError) in try KPIDecoders.connection(f)
        }
        #expect(connections[0].result.failureReason?.contains("is before connectedAt") == true)
    }
}

extension Result where Failure == FieldError {
    var failureReason: String? {
        if case .failure(let error) = self { return error.reason }
        return nil
    }
}
