// The part of the Shopify Admin GraphQL schema (2026-04) the app uses, as Shopify documents it:
// Order (name, money as MoneyBag, line items, fulfillments, customer, refunds), Customer, Refund, and
// refundCreate with its RefundCreatePayload and userErrors. A query outside it is refused by
// validation, as Shopify refuses an unknown field.
import { buildSchema } from "graphql";

export const FAKE_SHOPIFY_SCHEMA = buildSchema(`
  "Required on refundCreate from 2026-04: the same key and input answers the first refund."
  directive @idempotent(key: String!) on FIELD

  scalar DateTime
  scalar Decimal

  enum CurrencyCode { USD EUR GBP CAD AUD }
  enum OrderTransactionKind { REFUND SALE CAPTURE AUTHORIZATION VOID }
  enum OrderTransactionStatus { AWAITING_RESPONSE ERROR FAILURE PENDING SUCCESS UNKNOWN }
  "A part of Shopify's list of transaction error codes."
  enum OrderTransactionErrorCode { CARD_DECLINED EXPIRED_CARD INCORRECT_NUMBER PROCESSING_ERROR GENERIC_ERROR }

  type MoneyV2 { amount: Decimal! currencyCode: CurrencyCode! }
  type MoneyBag { shopMoney: MoneyV2! presentmentMoney: MoneyV2! }

  type CustomerEmailAddress { emailAddress: String }
  type Customer {
    id: ID!
    displayName: String!
    firstName: String
    lastName: String
    defaultEmailAddress: CustomerEmailAddress
  }

  type Product { id: ID! productType: String! }
  type LineItem { id: ID! title: String! quantity: Int! product: Product }
  type LineItemConnection { nodes: [LineItem!]! }
  type Fulfillment { id: ID! deliveredAt: DateTime createdAt: DateTime! }
  type MailingAddress { countryCodeV2: String }

  type OrderTransaction {
    id: ID!
    kind: OrderTransactionKind!
    status: OrderTransactionStatus!
    gateway: String
    amountSet: MoneyBag!
    errorCode: OrderTransactionErrorCode
    createdAt: DateTime!
  }
  type OrderTransactionConnection { nodes: [OrderTransaction!]! }

  type Refund {
    id: ID!
    createdAt: DateTime
    note: String
    totalRefundedSet: MoneyBag!
    transactions(first: Int): OrderTransactionConnection!
  }

  type Order {
    id: ID!
    name: String!
    email: String
    createdAt: DateTime!
    processedAt: DateTime!
    totalPriceSet: MoneyBag!
    totalRefundedSet: MoneyBag!
    lineItems(first: Int): LineItemConnection!
    fulfillments(first: Int): [Fulfillment!]!
    shippingAddress: MailingAddress
    customer: Customer
    refunds(first: Int): [Refund!]!
    paymentGatewayNames: [String!]!
  }
  type OrderConnection { nodes: [Order!]! }

  type Query {
    order(id: ID!): Order
    refund(id: ID!): Refund
    orders(first: Int, query: String): OrderConnection!
    customer(id: ID!): Customer
  }

  input OrderTransactionInput {
    amount: Decimal!
    gateway: String!
    kind: OrderTransactionKind!
    orderId: ID!
    parentId: ID
  }
  input RefundInput {
    orderId: ID!
    note: String
    notify: Boolean
    currency: CurrencyCode
    transactions: [OrderTransactionInput!]
  }

  type UserError { field: [String!] message: String! }
  type RefundCreatePayload { order: Order refund: Refund userErrors: [UserError!]! }

  type Mutation {
    refundCreate(input: RefundInput!): RefundCreatePayload
  }
`);
